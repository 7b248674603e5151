import { schedulerSuite } from './scheduler-suite';

/**
 * Stop and pause reach a running turn (docs/domain-contract.md §4): the host learns it from the
 * heartbeat reply within one heartbeat; after stop only the terminal is left to it; a turn it
 * aborts while the agent is paused gives its message back to the queue, replayed on resume.
 */
describe('stop and pause reach the running turn over HTTP', () => {
  const s = schedulerSuite({ scheduler: false });
  const control = (action: string) => s.post('/control', { action });
  const openTurn = async (body: string) => {
    const prompt = (await s.post('/messages', { kind: 'operator_prompt', body })).body.message;
    const activation = await s.activate();
    expect(activation.decision).toMatchObject({ kind: 'StartModelTurn', message_id: prompt.id });
    return { turnId: activation.turn.turn_id as string, messageId: prompt.id as string };
  };

  it('pause: cancel_requested at the next heartbeat, the aborted turn requeues its message, resume replays it', async () => {
    const { turnId, messageId } = await openTurn('Summarise the incident.');
    const turn = s.turn(turnId);
    expect((await turn.heartbeat()).body).toMatchObject({ posture: 'awake_running', cancel_requested: false });
    expect((await control('pause')).body).toMatchObject({ posture: 'paused', changed: true });
    const interjection = (
      await s.post('/messages', { kind: 'operator_prompt', priority: 'interject', body: 'Also the timeline.' })
    ).body.message;
    const heartbeat = await turn.heartbeat();
    expect(heartbeat.status).toBe(200);
    expect(heartbeat.body).toMatchObject({ posture: 'paused', cancel_requested: true, interjections: [] });
    // The host finishes its round, then ends the turn at the boundary.
    expect((await turn.round('r-pause-1', 'Half done.')).status).toBe(200);
    const ended = await turn.end('aborted');
    expect(ended.status).toBe(200);
    expect(ended.body.message).toMatchObject({ id: messageId, status: 'queued' });
    await s.settled();
    const queued = (await s.get('/messages')).body.items.map((m: any) => m.id);
    expect(queued).toEqual(expect.arrayContaining([messageId, interjection.id]));
    const events = await s.eventsOf(s.agent);
    expect(events.find((e) => e.type === 'MessageRequeued')?.data).toMatchObject({
      message_id: messageId,
      cause: 'paused',
    });
    expect((await control('resume')).body).toMatchObject({ posture: 'awake_idle' });
    const replay = await s.activate();
    expect(replay.decision.kind).toBe('StartModelTurn');
    const replayed = [interjection.id, messageId];
    expect(replayed).toContain(replay.message.id);
    expect((await s.turn(replay.turn.turn_id).end('completed', 'Done.')).status).toBe(200);
  });

  it('stop: cancel_requested, rounds and interjections refused with 409 agent_stopped, the terminal accepted', async () => {
    // The interjection left queued by the pause gets its own turn first.
    for (let next = await s.activate(); next.decision.kind === 'StartModelTurn'; next = await s.activate()) {
      await s.turn(next.turn.turn_id).end('completed', 'ok');
    }
    const { turnId, messageId } = await openTurn('Rotate the keys.');
    const turn = s.turn(turnId);
    expect((await control('stop')).body).toMatchObject({ posture: 'stopped' });
    expect((await turn.heartbeat()).body).toMatchObject({ posture: 'stopped', cancel_requested: true });
    const round = await turn.round('r-stop-1', 'one more');
    expect(round.status).toBe(409);
    expect(round.body.error).toMatchObject({ code: 'agent_stopped', details: { rule: 'agent_stopped' } });
    const interject = await s.post('/messages', { kind: 'operator_prompt', priority: 'interject', body: 'wait' });
    expect(interject.status).toBe(409);
    expect(interject.body.error.code).toBe('agent_stopped');
    const ended = await turn.end('aborted');
    expect(ended.status).toBe(200);
    expect(ended.body.message).toMatchObject({ id: messageId, status: 'aborted' });
    await s.settled();
    expect((await s.get('/state')).body).toMatchObject({ posture: 'stopped', open_turn: null });
  });
});
