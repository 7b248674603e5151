import { status as GrpcStatus } from '@grpc/grpc-js';
import { startTestApp, type TestApp } from '../../support/app';
import { agentsProjected, callerEventsOf, refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';

/** proto-loader's `_<field>` presence marks and a oneof's case name are not data. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('_') && key !== 'content')
      .map(([key, inner]) => [key, plain(inner)]),
  );
}

describe('tasks, timers, messages and control over gRPC', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let scoped: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  const written = async (agentId: string) => (await callerEventsOf(app, agentId)).length;

  async function ok(method: string, request: object): Promise<any> {
    const result = await scoped(method, { agent_id: mine, ...request });
    expect(result.error).toBeNull();
    return result.reply;
  }

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}` });
    grpc = runtimeGrpcClient(app);
    scoped = grpc.as('tok-mine');
    await ok('RegisterAgent', {});
    expect((await grpc.as('tok-admin')('RegisterAgent', { agent_id: other })).error).toBeNull();
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('creates a task and moves it forward; a stale status is a warning; ListTasks matches HTTP', async () => {
    const created = await ok('CreateTask', { kind: 'build', wait_policy: 'background', summary: 'compile' });
    expect(created).toMatchObject({ task: { kind: 'build', status: 'queued', terminal: false }, warnings: [] });
    const id = created.task.id;
    expect((await ok('UpdateTaskStatus', { task_id: id, status: 'completed', detail: 'ok' })).task).toMatchObject({
      status: 'completed',
      terminal: true,
    });
    const before = await written(mine);
    const stale = await ok('UpdateTaskStatus', { task_id: id, status: 'running' });
    expect(stale.task.status).toBe('completed');
    expect(stale.warnings).toEqual([
      expect.objectContaining({
        kind: 'stale_task_status_ignored',
        details_json: expect.stringContaining('"requested_status":"running"'),
      }),
    ]);
    expect(await written(mine)).toBe(before);
    await agentsProjected(app, mine);
    const list = await ok('ListTasks', { filter: 'terminal' });
    expect(list).toMatchObject({ total: 1, items: [{ id, status: 'completed' }] });
    const http = await httpClient(app, 'tok-mine')('GET', `/v1/agents/${mine}/tasks?filter=terminal`);
    expect(plain(list)).toEqual(JSON.parse(JSON.stringify(http.body, (_k, v) => (v === null ? undefined : v))));
  });

  it('creates, lists and cancels timers (idempotent cancel)', async () => {
    const timer = await ok('CreateTimer', { duration_ms: '3600000', interval_ms: '60000', resume_text: 'check' });
    expect(timer.timer).toMatchObject({ status: 'scheduled', interval_ms: '60000', resume_text: 'check' });
    await agentsProjected(app, mine);
    expect((await ok('ListTimers', { status: 'scheduled' })).items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: timer.timer.id, due: false })]),
    );
    expect(await ok('CancelTimer', { timer_id: timer.timer.id })).toMatchObject({
      cancelled: true,
      timer: { status: 'cancelled' },
    });
    expect(await ok('CancelTimer', { timer_id: timer.timer.id })).toMatchObject({ cancelled: false });
  });

  it('enqueues text and JSON bodies as operator_instruction, lists the queue in order, drops one', async () => {
    const agent = freshId('agent');
    const admin = grpc.as('tok-admin');
    await admin('RegisterAgent', { agent_id: agent });
    const text = await admin('EnqueueMessage', {
      agent_id: agent,
      kind: 'operator_prompt',
      body: { text: 'later' },
      priority: 'background',
    });
    expect(text.reply.message).toMatchObject({
      authority: 'operator_instruction',
      body: { text: 'later' },
      status: 'queued',
    });
    const json = await admin('EnqueueMessage', {
      agent_id: agent,
      kind: 'webhook_event',
      body: { json: '{"pr":7}' },
      message_correlation_id: 'gh-7',
    });
    expect(json.reply.message).toMatchObject({ body: { json: '{"pr":7}' }, correlation_id: 'gh-7' });
    await agentsProjected(app, agent);
    expect((await admin('ListMessages', { agent_id: agent })).reply.items.map((m: any) => m.id)).toEqual([
      json.reply.message.id,
      text.reply.message.id,
    ]);
    const dropped = await admin('DropMessage', { agent_id: agent, message_id: text.reply.message.id });
    expect(dropped.reply).toMatchObject({ dropped: true, message: { status: 'dropped' } });
  });

  it('stops and starts an agent; a stopped agent ignores wake hints', async () => {
    const agent = freshId('agent');
    const admin = grpc.as('tok-admin');
    await admin('RegisterAgent', { agent_id: agent });
    const stopped = await admin('Control', { agent_id: agent, action: 'stop' });
    expect(stopped.reply).toMatchObject({
      previous_posture: 'awake_idle',
      posture: 'stopped',
      changed: true,
      agent: { posture: 'stopped' },
    });
    expect((await admin('SubmitWakeHint', { agent_id: agent, source: 'cron', reason: 'tick' })).reply).toMatchObject({
      disposition: 'ignored',
    });
    expect((await admin('Control', { agent_id: agent, action: 'start' })).reply).toMatchObject({
      posture: 'awake_idle',
      changed: true,
    });
  });

  it.each<[string, object, number]>([
    ['EnqueueMessage', { kind: 'system_tick', body: { text: 'x' } }, GrpcStatus.INVALID_ARGUMENT],
    ['EnqueueMessage', { kind: 'operator_prompt' }, GrpcStatus.INVALID_ARGUMENT],
    ['EnqueueMessage', { kind: 'operator_prompt', body: { json: '"text"' } }, GrpcStatus.INVALID_ARGUMENT],
    ['EnqueueMessage', { kind: 'operator_prompt', body: { text: 'x' }, work_item_id: 'missing' }, GrpcStatus.NOT_FOUND],
    ['CreateTask', { kind: 'x' }, GrpcStatus.INVALID_ARGUMENT],
    ['UpdateTaskStatus', { task_id: 'missing', status: 'running' }, GrpcStatus.NOT_FOUND],
    ['UpdateTaskStatus', { task_id: 't', status: 'done' }, GrpcStatus.INVALID_ARGUMENT],
    ['CreateTimer', { fire_at: '2099-01-01T00:00:00Z', duration_ms: '10' }, GrpcStatus.INVALID_ARGUMENT],
    ['CancelTimer', { timer_id: 'missing' }, GrpcStatus.NOT_FOUND],
    ['DropMessage', { message_id: 'bad/id' }, GrpcStatus.INVALID_ARGUMENT],
    ['Control', { action: 'reboot' }, GrpcStatus.INVALID_ARGUMENT],
    ['ListMessages', { status: 'lost' }, GrpcStatus.INVALID_ARGUMENT],
  ])('refuses %s %j, writing nothing', async (method, request, code) => {
    const before = await written(mine);
    expect(refusalOf(await scoped(method, { agent_id: mine, ...request })).code).toBe(code);
    expect(await written(mine)).toBe(before);
  });

  it('refuses a missing token (UNAUTHENTICATED) and another agent (PERMISSION_DENIED, nothing written)', async () => {
    const request = { kind: 'operator_prompt', body: { text: 'x' }, action: 'stop', wait_policy: 'background' };
    expect(refusalOf(await grpc.as()('EnqueueMessage', { agent_id: mine, ...request })).code).toBe(
      GrpcStatus.UNAUTHENTICATED,
    );
    const before = await written(other);
    for (const method of ['EnqueueMessage', 'Control', 'CreateTask', 'ListMessages']) {
      expect(refusalOf(await scoped(method, { agent_id: other, ...request })).code).toBe(GrpcStatus.PERMISSION_DENIED);
    }
    expect(await written(other)).toBe(before);
  });
});
