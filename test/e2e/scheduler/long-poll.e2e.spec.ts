import { schedulerSuite } from './scheduler-suite';
import { activationOnOwnConnection, timed, waiting, waitersIn } from './long-poll-support';

/**
 * Issue 16 item 3 (server side) over HTTP: `POST activations` with `wait_ms` waits for work
 * (docs/decisions/0028). No worker runs: every step here is the activation's own.
 */
describe('long-poll activations (HTTP)', () => {
  const s = schedulerSuite({ scheduler: false });
  const activate = (body: object, headers: Record<string, string> = {}) =>
    s.http('POST', `/v1/agents/${s.agent}/activations`, body, headers);
  const turnsStarted = async () => (await s.eventsOf(s.agent)).filter((e) => e.type === 'TurnStarted').length;
  const endTurn = async (turnId: string) => expect((await s.turn(turnId).end('completed', 'done')).status).toBe(200);

  afterEach(() => expect(waitersIn(s.app)).toBe(0));

  it('a waiting host gets the turn once an operator message is enqueued: woken by the message, not the timeout', async () => {
    const idle = await activate({});
    expect(idle.body.turn).toBeUndefined();
    const pending = timed(activate({ wait_ms: 20_000 }, { 'idempotency-key': 'lp-message' }));
    await waiting(s.app, 1);
    const prompt = (await s.post('/messages', { kind: 'operator_prompt', body: 'Fix the login bug.' })).body.message;
    const reply = await pending;
    expect(reply.status).toBe(200);
    expect(reply.body.decision).toMatchObject({ kind: 'StartModelTurn', message_id: prompt.id });
    expect(reply.body.turn.turn_id).toMatch(/^turn_/);
    expect(reply.body.message).toMatchObject({ id: prompt.id, status: 'dequeued' });
    expect(reply.elapsed).toBeLessThan(15_000);
    await endTurn(reply.body.turn.turn_id);
  });

  it('wait_ms passing with nothing to do answers the last decision, without a turn', async () => {
    const reply = await timed(activate({ wait_ms: 300 }));
    expect(reply.status).toBe(200);
    expect(reply.body.turn).toBeUndefined();
    expect(reply.body.decision.kind).not.toBe('StartModelTurn');
    expect(reply.elapsed).toBeGreaterThanOrEqual(290);
  });

  it('work already there answers at once, as wait_ms 0 would', async () => {
    await s.post('/messages', { kind: 'operator_prompt', body: 'Write the notes.' });
    const reply = await activate({ wait_ms: 20_000 });
    expect(reply.body.turn).toBeDefined();
    await endTurn(reply.body.turn.turn_id);
  });

  it('two hosts waiting on one agent: exactly one gets the turn, the other keeps waiting and answers turn_in_progress', async () => {
    const before = await turnsStarted();
    // The loser waits out its wait_ms (the turn is not its work): short enough for a spec, long enough to be woken.
    const first = activate({ wait_ms: 8_000 }, { 'idempotency-key': 'lp-host-1' });
    const second = activate({ wait_ms: 8_000 }, { 'idempotency-key': 'lp-host-2' });
    await waiting(s.app, 2);
    await s.post('/messages', { kind: 'operator_prompt', body: 'One of you, please.' });
    const replies = await Promise.all([first, second]);
    const winners = replies.filter((reply) => reply.body.turn !== undefined);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    expect(winners).toHaveLength(1);
    const loser = replies.find((reply) => reply.body.turn === undefined)!;
    expect(loser.body.decision).toMatchObject({ kind: 'Noop', reason: 'turn_in_progress' });
    expect((await turnsStarted()) - before).toBe(1);
    await endTurn(winners[0]!.body.turn.turn_id);
  });

  it('a retry with the same Idempotency-Key never opens a second turn: both requests answer the one turn', async () => {
    const before = await turnsStarted();
    const key = { 'idempotency-key': 'lp-retry' };
    // The first request's connection "dropped" but the server still holds it; the host retries.
    const original = activate({ wait_ms: 20_000 }, key);
    const retry = activate({ wait_ms: 20_000 }, key);
    await waiting(s.app, 2);
    await s.post('/messages', { kind: 'operator_prompt', body: 'Retry-safe, please.' });
    const [a, b] = await Promise.all([original, retry]);
    expect(a.body.turn.turn_id).toBe(b.body.turn.turn_id);
    expect((await turnsStarted()) - before).toBe(1);
    const again = await activate({ wait_ms: 20_000 }, key);
    expect(again.body).toEqual(a.body);
    await endTurn(a.body.turn.turn_id);
  });

  it('a key whose long poll timed out without a turn simply runs again, and then names the turn it opens', async () => {
    const key = { 'idempotency-key': 'lp-timed-out' };
    expect((await activate({ wait_ms: 200 }, key)).body.turn).toBeUndefined();
    await s.post('/messages', { kind: 'operator_prompt', body: 'Now there is work.' });
    const opened = await activate({ wait_ms: 20_000 }, key);
    expect(opened.body.turn).toBeDefined();
    expect((await activate({}, key)).body).toEqual(opened.body);
    await endTurn(opened.body.turn.turn_id);
  });

  it('a client that goes away ends its wait: no waiter is left behind and no turn is opened for it', async () => {
    const before = await turnsStarted();
    const held = activationOnOwnConnection(s.app, s.agent, 'tok-host', { wait_ms: 30_000 });
    await waiting(s.app, 1);
    held.hangUp();
    expect(await held.reply).toBeNull();
    await waiting(s.app, 0);
    await s.post('/messages', { kind: 'operator_prompt', body: 'Nobody is listening.' });
    expect(await turnsStarted()).toBe(before);
    const reply = await activate({});
    await endTurn(reply.body.turn.turn_id);
  });

  it('stopping the agent ends a wait with the Stop decision; a paused or stopped agent answers at once', async () => {
    const pending = activate({ wait_ms: 20_000 });
    await waiting(s.app, 1);
    expect((await s.post('/control', { action: 'stop' })).status).toBe(200);
    const stopped = await timed(pending);
    expect(stopped.body.decision).toMatchObject({ kind: 'Stop', reason: 'stopped' });
    expect(stopped.elapsed).toBeLessThan(15_000);
    expect((await timed(activate({ wait_ms: 20_000 }))).elapsed).toBeLessThan(15_000);
    await s.post('/control', { action: 'start' });
    await s.post('/control', { action: 'pause' });
    const paused = await timed(activate({ wait_ms: 20_000 }));
    expect(paused.body.decision).toMatchObject({ kind: 'Noop', reason: 'paused' });
    expect(paused.elapsed).toBeLessThan(15_000);
    await s.post('/control', { action: 'resume' });
  });

  it('an unknown agent is 404, with or without wait_ms', async () => {
    const reply = await s.http('POST', '/v1/agents/no-such-agent/activations', { wait_ms: 20_000 });
    expect([403, 404]).toContain(reply.status);
    const admin = await fetch(`${s.app.baseUrl}/v1/agents/no-such-agent/activations`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-admin', 'content-type': 'application/json' },
      body: JSON.stringify({ wait_ms: 20_000 }),
    });
    expect(admin.status).toBe(404);
    expect(((await admin.json()) as any).error.code).toBe('not_found');
  });

  it.each([-1, 60_001, 1.5, '1000'])('wait_ms %p is refused with 400 naming the field', async (wait_ms) => {
    const reply = await activate({ wait_ms });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('validation_failed');
    expect(reply.body.error.details.errors.map((e: any) => e.field)).toContain('wait_ms');
  });
});
