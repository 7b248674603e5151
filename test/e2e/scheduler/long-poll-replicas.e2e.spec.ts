import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { activationOnOwnConnection, timed, waiting, waitersIn } from './long-poll-support';

/**
 * Long-poll activations across processes (docs/decisions/0028): two apps on one store, on the
 * system clock. `api` runs no worker; `replica` runs the worker too (its own schema, shared by
 * both), and allows one waiting activation per token.
 */
describe('long-poll activations across replicas, deadlines and bounds', () => {
  const agent = freshId('agent');
  const tokens = `tok-admin=*;tok-host=${agent};tok-other=${agent}`;
  let api: TestApp;
  let replica: TestApp;
  const activate = (app: TestApp, body: object, token = 'tok-host') =>
    httpClient(app, token)('POST', `/v1/agents/${agent}/activations`, body);
  const post = (app: TestApp, path: string, body: object) =>
    httpClient(app, 'tok-host')('POST', `/v1/agents/${agent}${path}`, body);
  const endTurn = async (app: TestApp, turnId: string) =>
    expect((await post(app, `/turns/${turnId}/terminal`, { terminal_kind: 'completed' })).status).toBe(200);

  beforeAll(async () => {
    const env = { DATABASE_URL: await isolatedDatabaseUrl('long_poll') };
    api = await startTestApp({ tokens, env });
    replica = await startTestApp({ tokens, scheduler: true, env: { ...env, ACTIVATION_WAITERS_PER_TOKEN: '1' } });
    expect((await httpClient(api, 'tok-admin')('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
  });
  afterAll(async () => {
    await replica?.close();
    await api?.close();
  });
  afterEach(() => {
    expect(waitersIn(api)).toBe(0);
    expect(waitersIn(replica)).toBe(0);
  });

  it('a message enqueued through another replica wakes a host waiting on this one', async () => {
    const pending = timed(activate(api, { wait_ms: 20_000 }));
    await waiting(api, 1);
    const prompt = (await post(replica, '/messages', { kind: 'operator_prompt', body: 'From the other replica.' })).body
      .message;
    const reply = await pending;
    expect(reply.status).toBe(200);
    expect(reply.body.turn).toBeDefined();
    expect(reply.body.message.id).toBe(prompt.id);
    expect(reply.elapsed).toBeLessThan(15_000);
    await endTurn(api, reply.body.turn.turn_id);
  });

  it('a timer coming due wakes a waiting host (fired here or by the worker of the other process)', async () => {
    expect((await post(api, '/work-items', { work_item_id: 'w-soak', objective: 'Let it soak' })).status).toBe(201);
    const fireAt = new Date(Date.now() + 1_500).toISOString();
    const wait = await post(api, '/work-items/w-soak/wait', { wake: 'timer', reason: 'soak', fire_at: fireAt });
    expect(wait.status).toBe(201);
    const reply = await timed(activate(api, { wait_ms: 20_000 }));
    expect(reply.body.decision).toMatchObject({ kind: 'StartModelTurn', reason: 'timer_fire' });
    expect(reply.body.message).toMatchObject({ kind: 'timer_tick' });
    expect(reply.elapsed).toBeLessThan(15_000);
    await endTurn(api, reply.body.turn.turn_id);
    expect((await post(api, '/work-items/w-soak/complete', {})).status).toBe(200);
  });

  it('a token over its share of waiting activations is refused with 429 and Retry-After; other tokens still wait', async () => {
    // Let the worker finish with the agent first, so no event ends the waits below early.
    await waiting(replica, 0);
    const held = activationOnOwnConnection(replica, agent, 'tok-host', { wait_ms: 30_000 });
    await waiting(replica, 1);
    const refused = await activate(replica, { wait_ms: 1_000 });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', details: { reason: 'waiters_per_token' } });
    expect((await activate(replica, { wait_ms: 0 })).status).toBe(200);
    expect((await activate(replica, { wait_ms: 200 }, 'tok-other')).status).toBe(200);
    held.hangUp();
    expect(await held.reply).toBeNull();
    await waiting(replica, 0);
  });
});
