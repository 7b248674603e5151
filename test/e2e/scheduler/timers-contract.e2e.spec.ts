import { kinds, schedulerSuite } from './scheduler-suite';

const at = (base: Date, ms: number) => new Date(base.getTime() + ms).toISOString();

/**
 * Issue 15 items 2, 3 and 7 over HTTP, with the scheduler worker in-process on a clock the spec
 * moves: a timer wait ends when its one-shot timer fires; an interval timer does not pile up
 * while the agent is paused or stopped; a tick whose item changed since is not served.
 */
describe('timer waits end and interval timers do not pile up (HTTP, scheduler worker running)', () => {
  const s = schedulerSuite();
  const ids: Record<string, string> = {};
  const timerTicks = async (): Promise<any[]> =>
    (await s.get('/messages?status=queued')).body.items.filter((m: any) => m.kind === 'timer_tick');
  const timerOf = async (id: string): Promise<any> =>
    (await s.get('/timers?status=all')).body.items.find((t: any) => t.id === id);

  it("a one-shot timer's firing resolves the wait bound to it: afterwards nothing is awaited", async () => {
    await s.post('/work-items', { work_item_id: 'w-soak', objective: 'Let the deploy soak' });
    const wait = await s.post('/work-items/w-soak/wait', {
      wake: 'timer',
      reason: 'let the deploy soak for a minute',
      fire_at: at(s.clock.now(), 60_000),
    });
    expect(wait.status).toBe(201);
    expect(kinds(await s.newDecisions()).at(-1)).toBe('WaitForTimer:waiting_for_timer');
    s.clock.advance(61_000);
    expect(kinds(await s.newDecisions())).toEqual(['StartModelTurn:timer_fire']);
    const intents = (await s.get('/waiting-intents?status=all')).body.items;
    expect(intents).toEqual([expect.objectContaining({ status: 'resolved', end_reason: 'timer_fired' })]);
    expect((await s.get('/work-items/w-soak')).body).toMatchObject({ blocked_by: null, readiness: 'runnable' });
    const turn = await s.activate();
    expect(turn.message).toMatchObject({ kind: 'timer_tick', body: 'let the deploy soak for a minute' });
    await s.turn(turn.turn.turn_id).end('completed', 'The deploy soaked.');
    const after = kinds(await s.newDecisions());
    expect(after).not.toContain('WaitForTimer:waiting_for_timer');
    expect(after).toContain('EmitSystemTick:queued_available');
    expect((await s.get('/state')).body.next_decision).toMatchObject({
      kind: 'StartModelTurn',
      reason: 'scheduler_tick',
    });
  });

  it('a tick whose item was completed since it was emitted is reduced with evidence stale_tick', async () => {
    expect((await s.post('/work-items/w-soak/complete', {})).status).toBe(200);
    const decisions = await s.newDecisions();
    expect(kinds(decisions)[0]).toBe('ReduceMessageOnly:stale_tick');
    expect(decisions[0].evidence).toEqual(expect.arrayContaining(['stale_tick']));
    expect((await s.get('/messages?status=queued')).body.items).toEqual([]);
  });

  it('an interval timer while paused: one fire pending at most, one more on resume with missed_periods', async () => {
    const timer = (await s.post('/timers', { duration_ms: 60_000, interval_ms: 60_000, resume_text: 'poll' })).body
      .timer;
    expect((await s.post('/control', { action: 'pause' })).body).toMatchObject({ posture: 'paused' });
    await s.newDecisions();
    s.clock.advance(61_000);
    await s.newDecisions();
    expect(await timerTicks()).toHaveLength(1);
    for (let period = 0; period < 2; period++) {
      s.clock.advance(60_000);
      await s.newDecisions();
    }
    expect(await timerTicks()).toHaveLength(1);
    expect(await timerOf(timer.id)).toMatchObject({ fire_count: 1, missed_periods: 0 });
    await s.post('/control', { action: 'resume' });
    await s.newDecisions();
    expect(await timerTicks()).toHaveLength(2);
    expect(await timerOf(timer.id)).toMatchObject({ fire_count: 2, missed_periods: 1 });
    ids.timer = timer.id;
  });

  it('an interval timer while stopped: no fire is recorded; on start one fire with the periods it missed', async () => {
    expect((await s.post('/control', { action: 'stop' })).body).toMatchObject({ posture: 'stopped' });
    for (const message of await timerTicks()) await s.http('DELETE', `/v1/agents/${s.agent}/messages/${message.id}`);
    await s.newDecisions();
    const before = await timerOf(ids.timer);
    s.clock.advance(5 * 60_000);
    expect(kinds(await s.newDecisions())).toEqual([]);
    expect(await timerOf(ids.timer)).toMatchObject({ fire_count: before.fire_count });
    expect((await s.get('/state')).body.next_due_at).toBeNull();
    await s.post('/control', { action: 'start' });
    expect(kinds(await s.newDecisions())[0]).toBe('StartModelTurn:timer_fire');
    const after = await timerOf(ids.timer);
    expect(after).toMatchObject({ fire_count: before.fire_count + 1 });
    expect(after.missed_periods).toBeGreaterThanOrEqual(before.missed_periods + 4);
    expect(await timerTicks()).toHaveLength(1);
    expect((await s.http('DELETE', `/v1/agents/${s.agent}/timers/${ids.timer}`)).status).toBe(200);
  });
});
