import { schedulerSuite } from './scheduler-suite';

/**
 * AgentState shape 11 (ADR 0042): once a message is processed and a round closed, the agent's
 * state keeps neither its body nor its text; the stream does. Over HTTP, every reply and view
 * that showed them still does: the context's process trace, the terminal reply (and its no-op
 * repeat), a repeated round, the messages list.
 */
describe('processed messages and closed rounds keep showing their body and text', () => {
  const s = schedulerSuite({ scheduler: false, isolated: 'bodies_e2e' });
  const ids: Record<string, string> = {};

  it('opens a turn on a prompt and records two rounds on the focused item', async () => {
    expect((await s.post('/work-items', { work_item_id: 'w-1', objective: 'Ship the fix' })).status).toBe(201);
    expect((await s.post('/work-items/w-1/pick', { reason: 'first' })).status).toBe(200);
    ids.prompt = (await s.post('/messages', { kind: 'operator_prompt', body: 'Ship the fix today.' })).body.message.id;
    const activation = await s.activate();
    ids.turn = activation.turn.turn_id;
    const t = s.turn(ids.turn);
    expect((await t.round('r-1', 'Reading the failing test.', [['tc-1', 'grep']])).status).toBe(200);
    expect((await t.round('r-2', 'Found it: a stale cache.')).status).toBe(200);
  });

  it('a repeat of a round the next one closed answers with its text; another text for it is refused', async () => {
    const t = s.turn(ids.turn);
    const repeat = await t.round('r-1', 'Reading the failing test.', [['tc-1', 'grep']]);
    expect(repeat.status).toBe(200);
    expect(repeat.body.round).toMatchObject({ round_id: 'r-1', status: 'closed', text: 'Reading the failing test.' });
    expect(repeat.body.closed_round).toBeNull();
    const other = await t.round('r-1', 'Something else.', [['tc-1', 'grep']]);
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'conflict' });
  });

  it('the terminal reply shows the message it processed, with its body; so does a no-op repeat', async () => {
    const t = s.turn(ids.turn);
    const end = await t.end('completed', 'Done.');
    expect(end.status).toBe(200);
    expect(end.body.message).toMatchObject({ id: ids.prompt, status: 'processed', body: 'Ship the fix today.' });
    const again = await t.end('completed', 'Done.'); // another key: the turn is closed, nothing is written
    expect(again.status).toBe(200);
    expect(again.body.message).toEqual(end.body.message);
    expect(again.body.revision).toBe(end.body.revision);
  });

  it("the context's process trace shows the closed rounds' texts, read from their events", async () => {
    const context = (await s.get('/context')).body;
    expect(context.sections[0].content.process_trace.rounds).toMatchObject([
      { round_id: 'r-1', text: 'Reading the failing test.', tool_calls: [{ tool_call_id: 'tc-1', name: 'grep' }] },
      { round_id: 'r-2', text: 'Found it: a stale cache.' },
    ]);
    expect(context.text).toContain('- round r-2 (turn ' + ids.turn + '): Found it: a stale cache.');
  });

  it('GET messages shows the processed message with its body', async () => {
    await s.settled(); // the read models have caught up
    const processed = (await s.get('/messages?status=processed')).body.items;
    expect(processed).toMatchObject([{ id: ids.prompt, status: 'processed', body: 'Ship the fix today.' }]);
  });

  it("a later activation's context, and its repeat under the same key, show the closed rounds' texts", async () => {
    expect((await s.post('/messages', { kind: 'operator_prompt', body: 'Now the notes.' })).status).toBe(201);
    const key = { 'idempotency-key': 'bodies-activation' };
    const first = await s.http('POST', `/v1/agents/${s.agent}/activations`, {}, key);
    expect(first.status).toBe(200);
    const rounds = first.body.context.sections[0].content.process_trace.rounds;
    expect(rounds.map((r: { round_id: string; text: string }) => [r.round_id, r.text])).toEqual([
      ['r-1', 'Reading the failing test.'],
      ['r-2', 'Found it: a stale cache.'],
    ]);
    const again = await s.http('POST', `/v1/agents/${s.agent}/activations`, {}, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});
