import { status as GrpcStatus } from '@grpc/grpc-js';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { projected } from '../../support/http';
import { refusalOf, runtimeGrpcClient, type GrpcReply } from '../../support/grpc';
import { freshId } from '../../support/postgres';
import { probe, secret, type Probe } from './support/world';

/**
 * RUNTIME_RATE_LIMIT=20/20: a burst of 20 per token, then one per second (slow enough that a
 * loaded machine cannot refill a bucket between two assertions). A flood from one
 * token is refused with 429 (gRPC RESOURCE_EXHAUSTED), writes nothing, and costs the others
 * nothing: another token and /health are served throughout.
 */
describe('the rate limit per token', () => {
  const agents = { flood: freshId('rl-flood'), calm: freshId('rl-calm'), writer: freshId('rl-writer') };
  const tokens = {
    flood: secret('tok-flood'),
    calm: secret('tok-calm'),
    writer: secret('tok-writer'),
    admin: secret('tok-admin'),
  };
  let app: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;

  const get = (token: string | undefined, path: string) =>
    probe(app, 'GET', path, token === undefined ? undefined : `Bearer ${token}`);
  const statuses = (replies: Probe[]) =>
    replies.reduce<Record<number, number>>(
      (count, reply) => ({ ...count, [reply.status]: (count[reply.status] ?? 0) + 1 }),
      {},
    );
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** One request per second refills a bucket: a check right after draining it is meaningful only within that second. */
  const REFILL_MS = 1000;

  /**
   * Empties a bucket through `drain` (until it answers 429) and at once runs `check`, which must
   * be refused. On a loaded machine more than one refill interval may pass in between; then the
   * round proves nothing and is run again (a check refused within the interval always fails).
   */
  async function refusedRightAfterDrain(drain: () => Promise<number>, check: () => Promise<boolean>): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      for (let sent = 0; (await drain()) !== 429; sent++) if (sent > 100) throw new Error('the bucket never emptied');
      const drainedAt = Date.now();
      if (await check()) return;
      if (Date.now() - drainedAt < REFILL_MS) throw new Error('served right after its bucket was drained');
    }
    throw new Error(
      'the machine is too slow to check the limit (more than a refill interval between two requests, five times)',
    );
  }

  beforeAll(async () => {
    app = await startTestApp({
      env: { RUNTIME_RATE_LIMIT: '20/20' },
      tokens: `${tokens.flood}=${agents.flood};${tokens.calm}=${agents.calm};${tokens.writer}=${agents.writer};${tokens.admin}=*`,
    });
    grpc = runtimeGrpcClient(app);
    for (const agent of Object.values(agents)) {
      expect(
        (await probe(app, 'POST', '/v1/agents', `Bearer ${tokens.admin}`, JSON.stringify({ agent_id: agent }))).status,
      ).toBe(201);
    }
    // The flood reads the agents read model: every served request must find its agent (200, not 404).
    await projected(app);
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('answers a flood from one token 429 rate_limited with Retry-After, while another token and /health are served', async () => {
    const flood = Array.from({ length: 80 }, () => get(tokens.flood, `/v1/agents/${agents.flood}`));
    const calm = Array.from({ length: 10 }, () => get(tokens.calm, `/v1/agents/${agents.calm}`));
    const health = Array.from({ length: 10 }, () => get(tokens.flood, '/health'));
    const [flooded, served, alive] = await Promise.all([Promise.all(flood), Promise.all(calm), Promise.all(health)]);
    const refused = flooded.filter((reply) => reply.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(50);
    expect(flooded.filter((reply) => reply.status === 200).length).toBeGreaterThanOrEqual(15);
    for (const reply of refused) {
      expect(reply.json).toEqual({
        error: {
          code: 'rate_limited',
          message: expect.any(String),
          details: { retry_after_seconds: expect.any(Number) },
        },
      });
      expect(reply.headers.get('retry-after')).toBe(String(reply.json.error.details.retry_after_seconds));
      expect(reply.json.error.details.retry_after_seconds).toBeGreaterThanOrEqual(1);
    }
    expect(statuses(served)).toEqual({ 200: 10 });
    expect(statuses(alive)).toEqual({ 200: 10 });
  });

  it("counts a token's gRPC calls in the same budget: RESOURCE_EXHAUSTED, error-code rate_limited, a retry-after trailer", async () => {
    let refusal: GrpcReply | undefined;
    await refusedRightAfterDrain(
      async () => (await get(tokens.flood, `/v1/agents/${agents.flood}`)).status,
      async () => {
        refusal = await grpc.call('GetAgent', { agent_id: agents.flood }, tokens.flood);
        return refusal.error !== null;
      },
    );
    expect(refusalOf(refusal!)).toMatchObject({
      code: GrpcStatus.RESOURCE_EXHAUSTED,
      errorCode: 'rate_limited',
      details: { retry_after_seconds: expect.any(Number) },
    });
    expect(refusal!.error?.metadata.get('retry-after')).toEqual([expect.stringMatching(/^\d+$/)]);
    expect((await grpc.call('GetAgent', { agent_id: agents.calm }, tokens.calm)).error).toBeNull();
  });

  it('serves the token again once Retry-After has passed', async () => {
    let refused = await get(tokens.flood, `/v1/agents/${agents.flood}`);
    for (let sent = 0; refused.status !== 429 && sent < 100; sent++)
      refused = await get(tokens.flood, `/v1/agents/${agents.flood}`);
    expect(refused.status).toBe(429);
    // Time-based on purpose: the claim is that waiting Retry-After is enough, and the bucket refills on the limiter's own monotonic clock (not the app's Clock).
    await sleep(Number(refused.headers.get('retry-after')) * 1000 + 100);
    expect((await get(tokens.flood, `/v1/agents/${agents.flood}`)).status).toBe(200);
  });

  it('writes nothing for a refused command: the events appended are exactly the accepted commands', async () => {
    const store = app.runtime.app.get<EventStore>(EVENT_STORE);
    const queued = async () =>
      (await store.readStream(agentStream(agents.writer))).filter((event) => event.type === 'MessageQueued').length;
    const before = await queued();
    const replies: Probe[] = [];
    for (let n = 0; n < 40; n++) {
      replies.push(
        await probe(
          app,
          'POST',
          `/v1/agents/${agents.writer}/messages`,
          `Bearer ${tokens.writer}`,
          JSON.stringify({ kind: 'operator_prompt', body: `flood ${n}` }),
        ),
      );
    }
    const accepted = replies.filter((reply) => reply.status === 201).length;
    expect(statuses(replies)[429]).toBeGreaterThanOrEqual(1);
    expect(accepted + statuses(replies)[429]!).toBe(40);
    expect((await queued()) - before).toBe(accepted);
  });

  it('limits the public callback route per client address, over HTTP and gRPC, and not the tokens', async () => {
    const replies = await Promise.all(
      Array.from({ length: 60 }, () => probe(app, 'POST', '/v1/callbacks/cb1.x.y.z', undefined, '{"source":"x"}')),
    );
    expect(statuses(replies)[404]).toBeGreaterThanOrEqual(15);
    expect(statuses(replies)[429]).toBeGreaterThanOrEqual(20);
    for (const reply of replies.filter((r) => r.status === 429)) expect(reply.json.error.code).toBe('rate_limited');
    await refusedRightAfterDrain(
      async () => (await probe(app, 'POST', '/v1/callbacks/cb1.x.y.z', undefined, '{"source":"x"}')).status,
      async () =>
        refusalOf(await grpc.call('Callback', { callback_token: 'cb1.x.y.z', source: 'x' })).errorCode ===
        'rate_limited',
    );
    expect((await get(tokens.calm, `/v1/agents/${agents.calm}`)).status).toBe(200);
    expect((await get(undefined, '/health')).status).toBe(200);
  });

  it('leaves requests without a valid token to the guard: 401, never 429', async () => {
    const replies = await Promise.all(Array.from({ length: 60 }, () => get(undefined, `/v1/agents/${agents.calm}`)));
    expect(statuses(replies)).toEqual({ 401: 60 });
  });
});
