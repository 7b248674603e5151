import { RuntimeApiError, RuntimeClient } from '@agent-runtime/client';
import { startTestApp, type TestApp } from '../support/app';
import { callerEventsOf } from '../support/grpc';
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
