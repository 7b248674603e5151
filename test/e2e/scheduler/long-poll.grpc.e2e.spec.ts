import { status as GrpcStatus } from '@grpc/grpc-js';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { schedulerSuite } from './scheduler-suite';
import { timed, waiting, waitersIn } from './long-poll-support';

/** Issue 16 item 3 (server side) over gRPC: `Activate` with `wait_ms` (docs/decisions/0028). No worker runs. */
describe('long-poll activations (gRPC)', () => {
  const s = schedulerSuite({ scheduler: false });
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  const activate = (request: object, metadata?: Record<string, string>) =>
    grpc.as('tok-host')('Activate', { agent_id: s.agent, ...request }, metadata);
  const enqueue = async (text: string) =>
    (await grpc.as('tok-host')('EnqueueMessage', { agent_id: s.agent, kind: 'operator_prompt', body: { text } })).reply
      .message;
  const turnsStarted = async () => (await s.eventsOf(s.agent)).filter((e) => e.type === 'TurnStarted').length;
  const endTurn = async (turnId: string) => expect((await s.turn(turnId).end('completed', 'done')).status).toBe(200);

  beforeAll(() => {
    grpc = runtimeGrpcClient(s.app);
  });
  afterAll(() => grpc?.close());
  afterEach(() => expect(waitersIn(s.app)).toBe(0));

  it('a waiting host gets the turn once an operator message is enqueued, well before wait_ms', async () => {
    const pending = timed(activate({ wait_ms: 20_000 }));
    await waiting(s.app, 1);
    const prompt = await enqueue('Fix the login bug.');
    const { error, reply, elapsed } = await pending;
    expect(error).toBeNull();
    expect(reply.decision).toMatchObject({ kind: 'StartModelTurn', message_id: prompt.id });
    expect(reply.turn.turn_id).toMatch(/^turn_/);
    expect(reply.message).toMatchObject({ id: prompt.id });
    expect(elapsed).toBeLessThan(15_000);
    await endTurn(reply.turn.turn_id);
  });

  it('wait_ms passing with nothing to do answers the last decision, without a turn', async () => {
    const { error, reply, elapsed } = await timed(activate({ wait_ms: 300 }));
    expect(error).toBeNull();
    expect(reply.turn).toBeNull();
    expect(reply.decision.kind).not.toBe('StartModelTurn');
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });

  it('two hosts waiting on one agent: exactly one gets the turn', async () => {
    const before = await turnsStarted();
    const calls = [
      activate({ wait_ms: 8_000, command_id: 'lp-grpc-1' }),
      activate({ wait_ms: 8_000, command_id: 'lp-grpc-2' }),
    ];
    await waiting(s.app, 2);
    await enqueue('One of you, please.');
    const replies = await Promise.all(calls);
    expect(replies.map((r) => r.error)).toEqual([null, null]);
    const winners = replies.filter((r) => r.reply.turn !== null);
    expect(winners).toHaveLength(1);
    expect(replies.find((r) => r.reply.turn === null)!.reply.decision).toMatchObject({ reason: 'turn_in_progress' });
    expect((await turnsStarted()) - before).toBe(1);
    await endTurn(winners[0]!.reply.turn.turn_id);
  });

  it('a cancelled call ends its wait: no waiter is left behind and no turn is opened for it', async () => {
    const before = await turnsStarted();
    const call = grpc.cancellable('Activate', { agent_id: s.agent, wait_ms: 30_000 }, 'tok-host');
    await waiting(s.app, 1);
    call.cancel();
    expect((await call.result).error?.code).toBe(GrpcStatus.CANCELLED);
    await waiting(s.app, 0);
    await enqueue('Nobody is listening.');
    expect(await turnsStarted()).toBe(before);
    const { reply } = await activate({});
    await endTurn(reply.turn.turn_id);
  });

  it('wait_ms over 60000 is INVALID_ARGUMENT naming the field', async () => {
    const refusal = refusalOf(await activate({ wait_ms: 60_001 }));
    expect(refusal).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, errorCode: 'validation_failed' });
    expect(refusal.details.errors.map((e: any) => e.field)).toContain('wait_ms');
  });
});
