import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';
import { schedulerSuite } from './scheduler-suite';

/** Each turn route's refusals, without the worker: activations carry out the scheduler's step themselves. */
describe('turn routes refuse what the host may not do', () => {
  const s = schedulerSuite({ scheduler: false });
  const revision = async () => String((await s.eventsOf(s.agent)).at(-1)?.revision);
  const code = (reply: { status: number; body: any }) => [
    reply.status,
    reply.body.error?.code,
    reply.body.error?.details?.rule,
  ];
  /** A fresh operator prompt and the turn an activation opens on it. */
  const openTurn = async () => {
    await s.post('/messages', { kind: 'operator_prompt', body: 'do something' });
    const activation = await s.activate();
    expect(activation.decision.kind).toBe('StartModelTurn');
    return activation.turn.turn_id as string;
  };
  let turnId: string;

  beforeAll(async () => {
    turnId = await openTurn();
  });

  it('answers 404 for an unknown turn, round or agent, and 400 for a malformed id', async () => {
    const ghost = s.turn('turn_ghost');
    for (const reply of [
      await ghost.heartbeat(),
      await ghost.round('r-ghost', 'x'),
      await ghost.close('r-ghost'),
      await ghost.end('completed'),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.details).toMatchObject({ resource: 'turn', turn_id: 'turn_ghost' });
    }
    expect((await s.turn(turnId).close('r-unknown')).body.error).toMatchObject({
      code: 'not_found',
      details: { resource: 'round' },
    });
    const admin = httpClient(s.app, 'tok-admin');
    expect((await admin('POST', `/v1/agents/${freshId('nobody')}/turns/${turnId}/heartbeat`, {})).status).toBe(404);
    expect((await s.post('/turns/bad%2Fid/heartbeat')).status).toBe(400);
  });

  it('answers a second activation while the turn is open with Noop turn_in_progress and opens nothing', async () => {
    const second = await s.activate();
    expect(second.decision).toMatchObject({
      kind: 'Noop',
      reason: 'turn_in_progress',
      evidence: expect.arrayContaining([`open_turn:${turnId}`]),
    });
    expect(second.turn).toBeUndefined();
    await s.settled();
    expect((await s.get('/state')).body.open_turn).toMatchObject({ turn_id: turnId });
  });

  it("validates bodies (400) and refuses another agent's token (403), writing nothing", async () => {
    const written = await revision();
    const t = s.turn(turnId);
    expect((await s.post(`/turns/${turnId}/terminal`, { terminal_kind: 'exploded' })).status).toBe(400);
    expect((await s.post(`/turns/${turnId}/heartbeat`, { lease_ttl_ms: 10 })).status).toBe(400);
    expect((await s.post(`/turns/${turnId}/heartbeat`, { trust: 'me' })).status).toBe(400);
    expect(
      (
        await t.round('r-dup', 'x', [
          ['tc-1', 'a'],
          ['tc-1', 'b'],
        ])
      ).body.error,
    ).toMatchObject({ code: 'validation_failed' });
    expect((await s.post(`/turns/${turnId}/rounds`, { text: 'no id' })).status).toBe(400);
    const other = freshId('agent');
    expect((await httpClient(s.app, 'tok-admin')('POST', '/v1/agents', { agent_id: other })).status).toBe(201);
    expect((await s.http('POST', `/v1/agents/${other}/turns/${turnId}/heartbeat`, {})).status).toBe(403);
    expect(await revision()).toBe(written);
  });

  it('answers a repeated Idempotency-Key with the first reply, and a stale expected_revision with 409', async () => {
    const key = { 'idempotency-key': freshId('hb') };
    const first = await s.http('POST', `/v1/agents/${s.agent}/turns/${turnId}/heartbeat`, {}, key);
    expect(first.status).toBe(200);
    expect((await s.http('POST', `/v1/agents/${s.agent}/turns/${turnId}/heartbeat`, {}, key)).body).toEqual(first.body);
    const stale = await s.post(`/turns/${turnId}/rounds`, { round_id: 'r-stale', expected_revision: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details.current_revision).toBe(await revision());
  });

  it('repeats the very same round as a no-op, and refuses its id with other content (409)', async () => {
    const t = s.turn(turnId);
    const recorded = await t.round('r-1', 'Looking.', [['tc-1', 'shell']]);
    expect(recorded.body).toMatchObject({
      round: { round_id: 'r-1', status: 'open', tool_calls: [{ tool_call_id: 'tc-1', name: 'shell' }] },
    });
    expect((await t.round('r-1', 'Looking.', [['tc-1', 'shell']])).body.revision).toBe(recorded.body.revision);
    expect(code(await t.round('r-1', 'Something else.'))).toEqual([409, 'conflict', undefined]);
  });

  it('ends a turn once: the same terminal again records nothing, another is refused (422)', async () => {
    const t = s.turn(turnId);
    const end = await t.end('failed', 'It broke.');
    expect(end.body).toMatchObject({
      turn: { status: 'closed' },
      message: { status: 'processed' },
      brief: { kind: 'failure', text: 'It broke.' },
    });
    expect((await t.end('failed', 'It broke.')).body.revision).toBe(end.body.revision);
    expect(code(await t.end('completed'))).toEqual([422, 'invariant_violated', 'turn_already_terminal']);
  });

  it('refuses heartbeats and rounds of an ended turn (the host lost it); closing its round repeats the outcome', async () => {
    const t = s.turn(turnId);
    expect(code(await t.heartbeat())).toEqual([422, 'invariant_violated', 'turn_not_open']);
    expect(code(await t.round('r-late', 'too late'))).toEqual([422, 'invariant_violated', 'turn_not_open']);
    expect((await t.close('r-1')).body).toMatchObject({ promotion: null, warnings: [] });
    const next = await openTurn();
    expect(next).not.toBe(turnId);
    expect((await s.turn(next).end('aborted')).body).toMatchObject({ message: { status: 'aborted' }, brief: null });
  });

  it('answers a repeated activation key with the turn it opened, stepping and appending nothing', async () => {
    await s.post('/messages', { kind: 'operator_prompt', body: 'once' });
    const key = { 'idempotency-key': freshId('activation') };
    const first = await s.http('POST', `/v1/agents/${s.agent}/activations`, {}, key);
    expect(first.body.decision.kind).toBe('StartModelTurn');
    const written = await revision();
    expect((await s.http('POST', `/v1/agents/${s.agent}/activations`, {}, key)).body).toEqual(first.body);
    expect(await revision()).toBe(written);
    await s.turn(first.body.turn.turn_id).end('completed');
  });

  it('answers the scheduler reads: 404 for an unknown agent, 400 for malformed parameters', async () => {
    const admin = httpClient(s.app, 'tok-admin');
    const nobody = `/v1/agents/${freshId('nobody')}`;
    expect((await admin('GET', `${nobody}/state`)).status).toBe(404);
    expect((await admin('GET', `${nobody}/context`)).status).toBe(404);
    expect((await s.get('/context?budget=lots')).status).toBe(400);
    expect((await s.get('/decisions?limit=many')).status).toBe(400);
    expect((await s.get('/briefs?kind=memo')).status).toBe(400);
    await s.settled();
    expect((await s.get('/decisions?limit=0')).body.items).toHaveLength(1);
    expect((await s.get('/briefs?kind=failure')).body).toMatchObject({
      total: 1,
      items: [{ kind: 'failure', text: 'It broke.' }],
    });
  });
});
