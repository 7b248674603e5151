import { RuntimeApiError, RuntimeClient } from '@agent-runtime/client';
import { startTestApp, type TestApp } from '../support/app';
import { agentsProjected, callerEventsOf } from '../support/grpc';
import { freshId } from '../support/postgres';

/*
 * The client against the real runtime (Fastify, gRPC, Postgres), over both transports: what a
 * host does, the typed refusals, and a retry after a lost reply that writes nothing twice.
 */
const agents = { http: freshId('client-http'), grpc: freshId('client-grpc') };
const TOKEN = 'tok-client-host';

describe.each(['http', 'grpc'] as const)('RuntimeClient over %s, on the real runtime', (transport) => {
  let app: TestApp;
  let client: RuntimeClient;
  const agent = agents[transport];

  beforeAll(async () => {
    app = await startTestApp({ tokens: `${TOKEN}=${agents.http}|${agents.grpc};tok-admin=*` });
    const url = transport === 'http' ? app.baseUrl : `grpc://${app.grpcAddress}`;
    client = new RuntimeClient({ url, token: TOKEN, transport });
  });
  afterAll(async () => {
    client?.close();
    await app?.close();
  });

  it('runs a host flow: register, create, pick, activate, heartbeat, round, terminal, read state', async () => {
    const registered = await client.registerAgent({ agent_id: agent });
    expect(registered).toMatchObject({ agent: { agent_id: agent }, revision: expect.any(String) });
    const created = await client.createWorkItem(agent, {
      work_item_id: 'w-1',
      objective: 'Fix the login bug',
      todo_list: [{ text: 'reproduce', state: 'in_progress' }],
    });
    expect(created.work_item).toMatchObject({ id: 'w-1', state: 'open', current_todo: { text: 'reproduce' } });
    expect((await client.pickWorkItem(agent, 'w-1', { reason: 'first' })).current).toMatchObject({ id: 'w-1' });
    await client.enqueueMessage(agent, { kind: 'operator_prompt', body: 'Please fix the login bug.' });

    const activation = await client.activate(agent, { lease_ttl_ms: 60_000 });
    expect(activation.decision).toMatchObject({ kind: 'StartModelTurn' });
    expect(activation.message).toMatchObject({ body: 'Please fix the login bug.', status: 'dequeued' });
    if (!activation.turn) throw new Error('the activation opened no turn');
    const turnId: string = activation.turn.turn_id;

    const heartbeat = await client.heartbeatTurn(agent, turnId);
    expect(heartbeat).toMatchObject({ turn: { turn_id: turnId }, cancel_requested: false, interjections: [] });
    const round = await client.recordRound(agent, turnId, {
      round_id: 'r-1',
      text: 'Fixed: the cookie was stale.',
      tool_calls: [{ tool_call_id: 'tc-1', name: 'edit_file' }],
    });
    expect(round.round).toMatchObject({ round_id: 'r-1', tool_calls: [{ tool_call_id: 'tc-1', name: 'edit_file' }] });
    await client.updateWorkItem(agent, 'w-1', { todo_list: [{ text: 'reproduce', state: 'completed' }] });
    const completed = await client.completeWorkItem(agent, 'w-1', { round_id: 'r-1' });
    expect(completed.work_item).toMatchObject({ state: 'completed' });
    expect((await client.closeRound(agent, turnId, 'r-1')).promotion).toMatchObject({ work_item_id: 'w-1' });
    const end = await client.postTerminal(agent, turnId, {
      terminal_kind: 'completed',
      last_assistant_message: 'Done.',
    });
    expect(end).toMatchObject({ turn: { turn_id: turnId, status: 'closed' }, message: { status: 'processed' } });

    const state = await client.getState(agent);
    expect(state.next_decision).toEqual(expect.objectContaining({ kind: expect.any(String) }));
    expect(await client.getPlan(agent, 'w-1')).toEqual(expect.any(String));
    expect((await client.listDecisions(agent)).items.length).toBeGreaterThan(0);
  });

  it('covers the waiting plane, timers, tasks, messages, control and the other reads', async () => {
    // The lists come from the read models. Until command replies carry `position` (then the
    // client passes min_position by itself), the spec waits for the projection before them.
    const projected = () => agentsProjected(app, agent);
    await client.createWorkItem(agent, { work_item_id: 'w-2', objective: 'Wait for CI' });
    const external = await client.waitFor(agent, 'w-2', {
      wake: 'external',
      reason: 'CI runs',
      source: 'ci',
      resource: 'ci/build-1',
    });
    expect(external).toMatchObject({ waiting_intent: { wake: 'external' }, callback_token: expect.any(String) });
    if (!external.callback_token) throw new Error('an external wait answers its callback token once');
    const called = await client.callback(external.callback_token, {
      source: 'ci',
      payload: { passed: true },
      event_id: 'e-1',
    });
    expect(called).toMatchObject({ status: 'triggered', waiting_intent_id: external.waiting_intent.id });
    const second = await client.waitFor(agent, null, { wake: 'external', reason: 'a webhook', resource: 'hook/1' });
    const triggered = await client.triggerWaitingIntent(agent, second.waiting_intent.id, {
      source: 'hook',
      payload: 'ping',
    });
    expect(triggered).toMatchObject({ status: 'triggered' });
    const third = await client.waitFor(agent, null, { wake: 'operator_input', reason: 'a question' });
    expect((await client.cancelWaitingIntent(agent, third.waiting_intent.id, { note: 'answered' })).cancelled).toBe(
      true,
    );
    await projected();
    expect((await client.listWaitingIntents(agent, { status: 'cancelled' })).items).toEqual([
      expect.objectContaining({ id: third.waiting_intent.id }),
    ]);

    const timer = await client.createTimer(agent, { duration_ms: 3_600_000, resume_text: 'check again' });
    await projected();
    expect((await client.listTimers(agent, { status: 'scheduled' })).items).toEqual([
      expect.objectContaining({ id: timer.timer.id }),
    ]);
    expect((await client.cancelTimer(agent, timer.timer.id)).cancelled).toBe(true);

    const task = await client.createTask(agent, {
      kind: 'build',
      wait_policy: 'background',
      expected_duration_ms: 60_000,
    });
    await client.taskHeartbeat(agent, task.task.id);
    const done = await client.updateTaskStatus(agent, task.task.id, { status: 'completed', detail: 'green' });
    expect(done.task).toMatchObject({ id: task.task.id, status: 'completed' });
    await projected();
    expect((await client.listTasks(agent, { filter: 'terminal' })).items).toEqual([
      expect.objectContaining({ id: task.task.id }),
    ]);

    const note = await client.enqueueMessage(agent, {
      kind: 'operator_prompt',
      body: { note: 'later' },
      priority: 'background',
    });
    expect(note.message).toMatchObject({ body: { note: 'later' }, status: 'queued' });
    expect((await client.dropMessage(agent, note.message.id)).dropped).toBe(true);
    await projected();
    expect((await client.listMessages(agent, { status: 'dropped' })).items).toEqual([
      expect.objectContaining({ id: note.message.id }),
    ]);
    expect(await client.submitWakeHint(agent, { source: 'cron', reason: 'tick' })).toMatchObject({
      disposition: expect.any(String),
    });
    expect(await client.control(agent, { action: 'pause' })).toMatchObject({ posture: 'paused', changed: true });
    expect(await client.control(agent, { action: 'resume' })).toMatchObject({ changed: true });

    await client.replacePlan(agent, 'w-2', '# Plan\n\n- wait for CI\n');
    expect(await client.getPlan(agent, 'w-2')).toBe('# Plan\n\n- wait for CI\n');
    await client.updateWorkItem(agent, 'w-2', { objective: 'Wait for CI, then ship' });
    await projected();
    expect((await client.getWorkItem(agent, 'w-2')).objective).toBe('Wait for CI, then ship');
    expect((await client.listWorkItems(agent, { filter: 'open' })).items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'w-2' })]),
    );
    expect(await client.getAgent(agent)).toMatchObject({ agent_id: agent });
    expect(await client.getContext(agent)).toMatchObject({ budget_tokens: expect.any(Number) });
    expect((await client.listBriefs(agent)).items).toEqual(expect.any(Array));
    expect((await client.listDeliverySummaries(agent)).items).toEqual(expect.any(Array));
  });

  it('refuses with typed errors: 404, 409 and 400 validation', async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => error,
      );
    const missing = await refusal(client.getWorkItem(agent, 'w-nope'));
    expect(missing).toBeInstanceOf(RuntimeApiError);
    expect(missing).toMatchObject({ code: 'not_found', status: 404 });
    expect(await refusal(client.registerAgent({ agent_id: agent }))).toMatchObject({ code: 'conflict', status: 409 });
    const invalid = await refusal(client.getWorkItem(agent, 'not an id!'));
    expect(invalid).toMatchObject({ code: 'validation_failed', status: 400 });
    expect((invalid as RuntimeApiError).details).toEqual(expect.any(Object));
    const forbidden = await refusal(client.getAgent('agent-of-someone-else'));
    expect(forbidden).toMatchObject({ code: 'forbidden', status: 403 });
  });

  it('answers a repeated Idempotency-Key with the first reply and writes once', async () => {
    const key = `key-${transport}-1`;
    const first = await client.createWorkItem(agent, { objective: 'Once' }, { idempotencyKey: key });
    const again = await client.createWorkItem(agent, { objective: 'Once' }, { idempotencyKey: key });
    expect(again).toEqual(first);
    const written = (await callerEventsOf(app, agent)).filter((event) => event.metadata.command_id === key);
    expect(written).toHaveLength(1);
  });
});

describe('RuntimeClient over http: a retry after a lost reply', () => {
  let app: TestApp;
  const agent = freshId('client-lost');

  beforeAll(async () => {
    app = await startTestApp({ tokens: `${TOKEN}=${agent}` });
  });
  afterAll(() => app?.close());

  it('given the reply to a command is lost, retries with the same key: one event written, the same reply', async () => {
    await new RuntimeClient({ url: app.baseUrl, token: TOKEN }).registerAgent({ agent_id: agent });
    const sent: Array<{ key: string | null; reply?: unknown }> = [];
    // The first POST reaches the server and is applied; its reply never reaches the client.
    const losingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const key = new Headers(init?.headers).get('idempotency-key');
      if (init?.method === 'POST' && sent.length === 0) {
        sent.push({ key, reply: await response.json() });
        throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      }
      sent.push({ key });
      return response;
    };
    const client = new RuntimeClient({
      url: app.baseUrl,
      token: TOKEN,
      fetch: losingFetch,
      retry: { baseDelayMs: 10 },
    });
    const reply = await client.createWorkItem(agent, { work_item_id: 'w-lost', objective: 'Survive a lost reply' });

    expect(sent).toHaveLength(2);
    expect(sent[1].key).toBe(sent[0].key);
    expect(reply).toEqual(sent[0].reply);
    const written = (await callerEventsOf(app, agent)).filter((event) => event.metadata.command_id === sent[0].key);
    expect(written).toHaveLength(1);
    expect(written[0].type).toBe('WorkItemCreated');
  });
});
