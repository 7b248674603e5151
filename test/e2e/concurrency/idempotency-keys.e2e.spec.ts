import { startTestApp, type TestApp } from '../../support/app';
import { callerEventsOf, refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';

jest.setTimeout(240_000);

const FAILED_PRECONDITION = 9;

/** Issue 14 item 3: a reused Idempotency-Key names one request; a webhook's event_id counts once. */
describe('idempotency keys over HTTP and gRPC', () => {
  const mine = freshId('agent');
  const base = `/v1/agents/${mine}`;
  let app: TestApp;
  let http: ReturnType<typeof httpClient>;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let rpc: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  const written = async () => (await callerEventsOf(app, mine)).length;
  const key = (k: string) => ({ 'idempotency-key': k });

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-mine=${mine}`, env: { RUNTIME_RATE_LIMIT: 'off' } });
    http = httpClient(app, 'tok-mine');
    grpc = runtimeGrpcClient(app);
    rpc = grpc.as('tok-mine');
    expect((await http('POST', '/v1/agents', { agent_id: mine })).status).toBe(201);
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('refuses a key reused for another command with 422 idempotency_key_reused, writing nothing', async () => {
    const created = await http('POST', `${base}/work-items`, { objective: 'first use' }, key('reuse-1'));
    expect(created.status).toBe(201);
    const before = await written();
    const reused = await http('POST', `${base}/messages`, { kind: 'operator_prompt', body: 'hi' }, key('reuse-1'));
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ code: 'idempotency_key_reused', details: { agent_id: mine } });
    const other = await http('POST', `${base}/work-items`, { objective: 'other data' }, key('reuse-1'));
    expect([other.status, other.body.error?.code]).toEqual([422, 'idempotency_key_reused']);
    const same = await http('POST', `${base}/work-items`, { objective: 'first use' }, key('reuse-1'));
    expect([same.status, same.body]).toEqual([201, created.body]);
    expect(await written()).toBe(before);
  });

  it('replays over gRPC a command first sent over HTTP with the same key, and refuses other data on both', async () => {
    const request = {
      objective: 'cross transport',
      plan_status: 'ready',
      todo_list: [{ text: 'a', state: 'pending' }],
    };
    const created = await http('POST', `${base}/work-items`, request, key('cross-1'));
    expect(created.status).toBe(201);
    const before = await written();
    const replayed = await rpc('CreateWorkItem', { agent_id: mine, command_id: 'cross-1', ...request });
    expect(replayed.error).toBeNull();
    expect(replayed.reply.work_item.id).toBe(created.body.work_item.id);
    expect(replayed.reply.revision).toBe(created.body.revision);
    const different = await rpc('CreateWorkItem', { agent_id: mine, command_id: 'cross-1', objective: 'changed' });
    expect(refusalOf(different)).toMatchObject({ code: FAILED_PRECONDITION, errorCode: 'idempotency_key_reused' });
    expect(await written()).toBe(before);
  });

  it('replays over HTTP a command first sent over gRPC with the same key', async () => {
    const first = await rpc('CreateWorkItem', { agent_id: mine, command_id: 'cross-2', objective: 'from grpc' });
    expect(first.error).toBeNull();
    const before = await written();
    const replayed = await http('POST', `${base}/work-items`, { objective: 'from grpc' }, key('cross-2'));
    expect(replayed.status).toBe(201);
    expect(replayed.body.work_item.id).toBe(first.reply.work_item.id);
    const reused = await http('POST', `${base}/messages`, { kind: 'operator_prompt', body: 'x' }, key('cross-2'));
    expect([reused.status, reused.body.error?.code]).toEqual([422, 'idempotency_key_reused']);
    expect(await written()).toBe(before);
  });

  it('documents the window (count and time) on the Idempotency-Key header in OpenAPI', async () => {
    const document = (await (await fetch(`${app.baseUrl}/docs-json`)).json()) as any;
    const parameters = document.paths['/v1/agents/{agent_id}/messages'].post.parameters as Array<any>;
    const header = parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(header?.description).toMatch(/1000/);
    expect(header?.description).toMatch(/no time limit/);
    expect(header?.description).toMatch(/idempotency_key_reused/);
  });

  it('counts a redelivered webhook event_id once, even after 1001 other commands', async () => {
    const item = await http('POST', `${base}/work-items`, { objective: 'wait for the deploy' });
    const wait = await http('POST', `${base}/work-items/${item.body.work_item.id}/wait`, {
      wake: 'external',
      reason: 'the deploy finished',
      resource: 'deploy:prod',
      delivery_mode: 'enqueue_message',
    });
    expect(wait.status).toBe(201);
    const token = wait.body.callback_token as string;
    const callback = (body: object) => httpClient(app)('POST', `/v1/callbacks/${token}`, body);
    const first = await callback({ source: 'deployer', event_id: 'delivery-1', payload: 'done' });
    expect([first.status, first.body.trigger_count]).toEqual([200, 1]);
    for (let batch = 0; batch < 1001; batch += 50) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(50, 1001 - batch) }, (_, i) =>
          http('POST', `${base}/messages`, { kind: 'operator_prompt', body: `filler ${batch + i}` }),
        ),
      );
      expect(replies.filter((r) => r.status !== 201)).toEqual([]);
    }
    const before = await written();
    const again = await callback({ source: 'deployer', event_id: 'delivery-1', payload: 'done' });
    expect([again.status, again.body.status, again.body.trigger_count]).toEqual([200, 'triggered', 1]);
    expect(await written()).toBe(before);
    const next = await callback({ source: 'deployer', event_id: 'delivery-2' });
    expect([next.status, next.body.trigger_count]).toEqual([200, 2]);
    const triggers = (await callerEventsOf(app, mine)).filter((e) => e.type === 'WaitingIntentTriggered');
    expect(triggers.map((e) => e.data.event_id)).toEqual(['delivery-1', 'delivery-2']);
  });
});
