import { type AnyEvent, replayDecisions } from '@app/domain';
import { kinds, schedulerSuite } from './scheduler-suite';

const at = (base: Date, ms: number) => new Date(base.getTime() + ms).toISOString();
const LOGIN_REPORT = 'Fixed the login bug: the session cookie was never refreshed.';

/**
 * A whole agent life over HTTP, with the scheduler worker in-process on a clock the spec moves:
 * the decisions recorded at each step are checked, and at the end the agent's stream replays to
 * exactly the recorded decisions.
 */
describe('an agent life driven by its host over HTTP, with the scheduler worker running', () => {
  const s = schedulerSuite();
  const ids: Record<string, string> = {};

  it('sleeps once registered, then stays idle; an activation then opens nothing', async () => {
    expect(kinds(await s.newDecisions())).toEqual(['Sleep:no_runnable_work', 'StayIdle:asleep']);
    const state = (await s.get('/state')).body;
    expect(state).toMatchObject({
      agent_id: s.agent,
      posture: 'asleep',
      open_turn: null,
      counts: { work_items: 0 },
      last_decision: { kind: 'StayIdle' },
    });
    expect(state.next_decision).toMatchObject({
      kind: 'StayIdle',
      reason: 'asleep',
      evidence: ['queue_empty', 'no_runnable_work'],
    });
    expect(state.projection_lag).toEqual({
      checkpoint: state.projection_lag.head,
      head: expect.stringMatching(/^\d+$/),
      caught_up: true,
    });
    const activation = await s.activate();
    expect(activation).toEqual({
      decision: expect.objectContaining({ kind: 'StayIdle' }),
      revision: state.revision,
      position: expect.stringMatching(/^\d+$/),
    });
    expect(await s.newDecisions()).toEqual([]);
  });

  it('wakes for an operator prompt; the activation opens a turn on it with a lease, the message and the context', async () => {
    ids.prompt = (
      await s.post('/messages', { kind: 'operator_prompt', body: 'Fix the login bug, then write the notes.' })
    ).body.message.id;
    expect(kinds(await s.newDecisions())).toEqual(['StartModelTurn:operator_input']);
    expect((await s.get('/state')).body).toMatchObject({
      posture: 'awake_idle',
      queue: { count: 1, head: { message_id: ids.prompt } },
    });
    const activation = await s.activate({ lease_ttl_ms: 120_000 });
    expect(activation.decision).toMatchObject({
      kind: 'StartModelTurn',
      reason: 'operator_input',
      message_id: ids.prompt,
    });
    expect(activation.turn).toEqual({
      turn_id: expect.stringMatching(/^turn_/),
      turn_index: 1,
      lease_expires_at: at(s.clock.now(), 120_000),
      work_item_id: null,
    });
    expect(activation.message).toMatchObject({
      id: ids.prompt,
      status: 'dequeued',
      body: 'Fix the login bug, then write the notes.',
    });
    expect(activation.context.sections.map((section: any) => section.name)).toEqual(['current_work_item']);
    ids.t1 = activation.turn.turn_id;
    expect(kinds(await s.newDecisions())).toEqual(['Noop:turn_in_progress']);
    expect((await s.get('/state')).body).toMatchObject({
      posture: 'awake_running',
      open_turn: { turn_id: ids.t1, message_id: ids.prompt },
    });
  });

  it("records the turn's rounds and tool work; a heartbeat keeps the lease; the terminal writes the result brief", async () => {
    const t = s.turn(ids.t1);
    expect(
      (
        await t.round('r-1', 'I will track both.', [
          ['tc-1', 'create_work_item'],
          ['tc-2', 'create_work_item'],
        ])
      ).status,
    ).toBe(200);
    const todos = [
      { text: 'reproduce', state: 'completed' },
      { text: 'fix', state: 'pending' },
      { text: 'regression test', state: 'pending' },
    ];
    expect(
      (await s.post('/work-items', { work_item_id: 'w-login', objective: 'Fix the login bug', todo_list: todos }))
        .status,
    ).toBe(201);
    expect(
      (await s.post('/work-items', { work_item_id: 'w-notes', objective: 'Write the release notes' })).status,
    ).toBe(201);
    expect((await t.heartbeat()).body).toMatchObject({
      turn: { lease_expires_at: at(s.clock.now(), 120_000) },
      interjections: [],
    });
    const context = (await s.get('/context')).body;
    expect(context.sections.map((section: any) => section.name)).toEqual(['current_work_item', 'queued_runnable']);
    expect(context.text).toContain('Fix the login bug');
    expect((await s.get('/context?budget=10')).body).toMatchObject({
      budget_tokens: 10,
      truncated: true,
      omitted_sections: ['queued_runnable'],
    });
    const end = await t.end('completed', 'Created two work items.');
    expect(end.body).toMatchObject({
      turn: { status: 'closed', terminal: { terminal_kind: 'completed' } },
      message: { status: 'processed' },
      brief: { kind: 'result', text: 'Created two work items.' },
    });
    const decisions = await s.newDecisions();
    expect(kinds(decisions)).toEqual(['EmitSystemTick:queued_available', 'StartModelTurn:scheduler_tick']);
    expect(decisions[0]).toMatchObject({
      idempotency_key: 'work_queue:queued_available:w-login:1',
      work_item_id: 'w-login',
    });
  });

  it('starts a turn on the queued_available tick; picking the item earns a continue_active tick', async () => {
    const activation = await s.activate();
    expect(activation.message).toMatchObject({
      kind: 'system_tick',
      work_item_id: 'w-login',
      correlation_id: 'work_queue:queued_available:w-login:1',
    });
    expect(activation.context.text).toContain('Queued runnable');
    const t = s.turn(activation.turn.turn_id);
    expect((await s.post('/work-items/w-login/pick', { reason: 'the bug blocks the release' })).status).toBe(200);
    await t.round('r-2', 'Starting with the login bug.', [['tc-3', 'pick_work_item']]);
    await t.end('completed', 'Picked the login bug.');
    const decisions = await s.newDecisions();
    expect(kinds(decisions)).toEqual([
      'Noop:turn_in_progress',
      'EmitSystemTick:continue_active',
      'StartModelTurn:scheduler_tick',
    ]);
    expect(decisions[1].idempotency_key).toBe('work_queue:continue_active:w-login:1');
    expect((await s.get('/work-items?filter=current')).body.items.map((i: any) => i.id)).toEqual(['w-login']);
  });

  it('hands over an interjection at the heartbeat and promotes the completion report of the round', async () => {
    const activation = await s.activate();
    expect(activation.turn.work_item_id).toBe('w-login');
    ids.t3 = activation.turn.turn_id;
    const t = s.turn(ids.t3);
    const interject = (
      await s.post('/messages', { kind: 'operator_prompt', priority: 'interject', body: 'Also check the logout path.' })
    ).body.message;
    expect(kinds(await s.newDecisions())).toEqual(['Noop:turn_in_progress']);
    const heartbeat = (await t.heartbeat({ lease_ttl_ms: 90_000 })).body;
    expect(heartbeat.turn.lease_expires_at).toBe(at(s.clock.now(), 90_000));
    expect(heartbeat.interjections).toEqual([expect.objectContaining({ id: interject.id, status: 'interjected' })]);
    await t.round('r-3', LOGIN_REPORT, [
      ['tc-4', 'edit_file'],
      ['tc-5', 'complete_work_item'],
    ]);
    const complete = (await s.post('/work-items/w-login/complete', { round_id: 'r-3' })).body;
    expect(complete).toMatchObject({
      completed_transition: true,
      warnings: [{ kind: 'unfinished_todos', pending_count: 2 }],
    });
    const promotion = { work_item_id: 'w-login', delivery_summary_id: 'ds_r-3', brief_id: 'brief_round_r-3' };
    expect((await t.close('r-3')).body).toEqual({
      promotion,
      warnings: [],
      // The item was completed with two pending todos: the runtime reminds, and keeps them (issue 17 item 5).
      reminders: [
        {
          kind: 'completed_with_unfinished_todos',
          work_item_id: 'w-login',
          todo: { text: 'fix', state: 'pending' },
          detail: expect.stringContaining('completed with 2 unfinished todos'),
        },
      ],
      revision: expect.any(String),
      position: expect.stringMatching(/^\d+$/),
    });
    expect((await t.close('r-3')).body).toMatchObject({ promotion });
    expect((await t.end('completed', 'Fixed the login bug.')).body).toMatchObject({
      brief: null,
      turn: { promoted_round_ids: ['r-3'] },
    });
    expect(kinds(await s.newDecisions())).toEqual(['EmitSystemTick:queued_available', 'StartModelTurn:scheduler_tick']);
    expect((await s.get('/work-items/w-login')).body).toMatchObject({
      state: 'completed',
      result_summary: LOGIN_REPORT,
      completion_report: { text: LOGIN_REPORT, source: 'result_summary' },
    });
    expect((await s.get('/briefs?work_item_id=w-login')).body).toEqual({
      items: [expect.objectContaining({ id: 'brief_round_r-3', kind: 'result', text: LOGIN_REPORT })],
      total: 1,
    });
    expect((await s.get(`/briefs?kind=result`)).body.items.map((b: any) => b.id)).not.toContain(`brief_turn_${ids.t3}`);
    expect((await s.get('/delivery-summaries?work_item_id=w-login')).body.items).toEqual([
      expect.objectContaining({
        id: 'ds_r-3',
        text: LOGIN_REPORT,
        evidence: {
          source: 'report_promotion',
          warnings: [expect.objectContaining({ kind: 'unfinished_todos' })],
          tool_call_ids: ['tc-4', 'tc-5'],
        },
      }),
    ]);
  });

  it('waits on CI; the callback surfaces the blocked item for review (triggered_review) without clearing its blocker', async () => {
    const t = s.turn((await s.activate()).turn.turn_id);
    await s.post('/work-items/w-notes/pick', {});
    const wait = (
      await s.post('/work-items/w-notes/wait', {
        wake: 'external',
        reason: 'the release tag from CI',
        resource: 'ci/release',
        source: 'ci',
      })
    ).body;
    await t.end('completed', 'Waiting for the release tag.');
    const waiting = await s.newDecisions();
    expect(kinds(waiting)).toEqual(['Noop:turn_in_progress', 'WaitForExternalChange:waiting_for_external_change']);
    expect(waiting[1].evidence).toContain(`intent:${wait.waiting_intent.id}:external:w-notes:ci/release`);
    expect((await s.http('POST', `/v1/callbacks/${wait.callback_token}`, { source: 'ci' })).body).toMatchObject({
      status: 'triggered',
      trigger_count: 1,
    });
    const reviewed = await s.newDecisions();
    expect(kinds(reviewed)).toEqual([
      'ReduceMessageOnly:liveness_only_tick',
      'EmitSystemTick:triggered_review',
      'StartModelTurn:scheduler_tick',
    ]);
    expect(reviewed[1].idempotency_key).toBe('work_queue:triggered_review:w-notes:1');
    expect((await s.get('/work-items?filter=triggered')).body.items).toEqual([
      expect.objectContaining({ id: 'w-notes', blocked_by: 'the release tag from CI' }),
    ]);
  });

  it('reviews the triggered item, clears the blocker and completes it; the report is promoted at the terminal; then sleep', async () => {
    const activation = await s.activate();
    expect(activation.message.body).toMatch(/^triggered_review: blocked work item w-notes/);
    expect(activation.context.sections.map((section: any) => section.name)).toContain('triggered_candidates');
    const t = s.turn(activation.turn.turn_id);
    await s.patch('/work-items/w-notes', { blocked_by: null });
    await s.post('/work-items/w-notes/pick', {});
    await t.round('r-5', 'Release notes written for the tagged build.', [['tc-6', 'complete_work_item']]);
    await s.post('/work-items/w-notes/complete', { round_id: 'r-5' });
    expect((await t.end('completed', 'Notes done.')).body).toMatchObject({
      brief: null,
      closed_round: { round_id: 'r-5', promotion: { work_item_id: 'w-notes' } },
    });
    expect(kinds(await s.newDecisions())).toEqual([
      'Noop:turn_in_progress',
      'Sleep:no_runnable_work',
      'StayIdle:asleep',
    ]);
  });

  it('waits on tasks: a task result resolves its wait and re-enters the model even when the agent rewrote the blocker (issue 15 item 1)', async () => {
    await s.post('/messages', { kind: 'operator_prompt', body: 'Ship the build and deploy to staging.' });
    expect(kinds(await s.newDecisions())).toEqual(['StartModelTurn:operator_input']);
    const t = s.turn((await s.activate()).turn.turn_id);
    for (const [item, task, reason] of [
      ['w-build', 't-build', 'the build finishes'],
      ['w-deploy', 't-deploy', 'the deploy finishes'],
    ]) {
      await s.post('/work-items', { work_item_id: item, objective: `Do ${item}` });
      await s.post('/tasks', { task_id: task, kind: 'ci', wait_policy: 'blocking', work_item_id: item });
      expect((await s.post(`/work-items/${item}/wait`, { wake: 'task_result', reason, resource: task })).status).toBe(
        201,
      );
    }
    await s.patch('/work-items/w-deploy', { blocked_by: 'the deploy finishes and QA signs off' });
    await t.end('completed');
    expect(kinds(await s.newDecisions())).toEqual(['Noop:turn_in_progress', 'WaitForTask:waiting_for_task']);
    await s.post('/tasks/t-deploy/status', { status: 'completed' });
    expect(kinds(await s.newDecisions())).toEqual(['StartModelTurn:task_result_resolved_wait']);
    expect((await s.get('/work-items/w-deploy')).body).toMatchObject({
      blocked_by: 'the deploy finishes and QA signs off',
      has_active_waits: false,
      readiness: 'blocked',
    });
    expect((await s.get('/state')).body).toMatchObject({ current_work_item: null });
    const reentry = await s.activate();
    expect(reentry.decision).toMatchObject({ reason: 'task_result_resolved_wait', work_item_id: 'w-deploy' });
    expect(reentry.message).toMatchObject({ kind: 'task_result', work_item_id: 'w-deploy', task_id: 't-deploy' });
    expect(reentry.turn).toMatchObject({ work_item_id: 'w-deploy' });
    expect(reentry.context.sections[0]).toMatchObject({ name: 'current_work_item', content: { id: 'w-deploy' } });
    const picked = (await s.eventsOf(s.agent)).filter((e) => e.type === 'WorkItemPicked').at(-1);
    expect(picked?.data).toMatchObject({ work_item_id: 'w-deploy', reason: 'reentry', previous_work_item_id: null });
    await s.turn(reentry.turn.turn_id).end('completed', 'The deploy finished; QA has yet to sign off.');
    expect(kinds(await s.newDecisions())).toEqual(['Noop:turn_in_progress', 'WaitForTask:waiting_for_task']);
    await s.post('/tasks/t-build/status', { status: 'completed' });
    expect(kinds(await s.newDecisions())).toEqual(['StartModelTurn:task_result_resolved_wait']);
    expect((await s.get('/work-items/w-build')).body).toMatchObject({ blocked_by: null, readiness: 'runnable' });
  });

  it('sets a timer and waits for it; the timer fires when the clock reaches it (timer_tick)', async () => {
    const activation = await s.activate();
    // The build's result is bound to w-build while w-deploy stays the focus: w-build is shown first.
    expect(activation.turn).toMatchObject({ work_item_id: 'w-build' });
    expect(activation.context.sections.slice(0, 2)).toMatchObject([
      { name: 'turn_work_item', content: { id: 'w-build' } },
      { name: 'current_work_item', content: { id: 'w-deploy' } },
    ]);
    const t = s.turn(activation.turn.turn_id);
    await s.post('/work-items/w-build/pick', {});
    await t.round('r-7', 'The build shipped.', [['tc-7', 'complete_work_item']]);
    await s.post('/work-items/w-build/complete', { round_id: 'r-7' });
    const timer = (
      await s.post('/timers', {
        duration_ms: 3_600_000,
        resume_text: 'Check whether QA signed off.',
        work_item_id: 'w-deploy',
      })
    ).body.timer;
    await t.end('completed');
    expect(kinds(await s.newDecisions())).toEqual(['Noop:turn_in_progress', 'WaitForTimer:waiting_for_timer']);
    const state = (await s.get('/state')).body;
    expect(state).toMatchObject({
      next_due_at: timer.fire_at,
      scheduled_timers: [{ id: timer.id, fire_at: timer.fire_at }],
    });
    expect(state.next_decision.evidence).toEqual([`timer:${timer.id}:${timer.fire_at}`]);
    s.clock.advance(3_600_000 + 1_000);
    const fired = await s.newDecisions();
    expect(kinds(fired)).toEqual(['StartModelTurn:timer_fire']);
    ids.timerMessage = fired[0].message_id;
  });

  it('recovers from a crashed host: the lease expires, the turn is interrupted and its message replays in the next turn', async () => {
    const activation = await s.activate({ lease_ttl_ms: 30_000 });
    expect(activation.message).toMatchObject({
      id: ids.timerMessage,
      kind: 'timer_tick',
      body: 'Check whether QA signed off.',
    });
    const dead = s.turn(activation.turn.turn_id);
    await dead.round('r-8', 'Asking QA.', [['tc-8', 'http_get']]);
    expect(kinds(await s.newDecisions())).toEqual(['Noop:turn_in_progress']);
    s.clock.advance(31_000);
    expect(kinds(await s.newDecisions())).toEqual(['StartModelTurn:timer_fire']);
    const tail = (await s.eventsOf(s.agent)).slice(-5).map((e) => [e.type, e.data]);
    expect(tail).toEqual([
      ['RoundClosed', expect.objectContaining({ round_id: 'r-8', cause: 'turn_terminal' })],
      ['TurnTerminal', expect.objectContaining({ turn_id: activation.turn.turn_id, terminal_kind: 'interrupted' })],
      ['MessageRequeued', expect.objectContaining({ message_id: ids.timerMessage })],
      [
        'RecoveryClassified',
        expect.objectContaining({ classification: 'requeued', cause: 'lease_expired', tool_call_ids: ['tc-8'] }),
      ],
      [
        'SchedulerDecisionRecorded',
        expect.objectContaining({ decision: expect.objectContaining({ message_id: ids.timerMessage }) }),
      ],
    ]);
    expect((await dead.heartbeat()).body.error).toMatchObject({
      code: 'invariant_violated',
      details: { rule: 'turn_not_open' },
    });
    const replay = await s.activate();
    expect(replay.message).toMatchObject({ id: ids.timerMessage, status: 'dequeued', interrupt_count: 1 });
    const t = s.turn(replay.turn.turn_id);
    await s.patch('/work-items/w-deploy', { blocked_by: null });
    await s.post('/work-items/w-deploy/pick', { reason: 'QA signed off' });
    await t.round('r-9', 'QA signed off; staging runs the new build.', [['tc-9', 'complete_work_item']]);
    await s.post('/work-items/w-deploy/complete', { round_id: 'r-9' });
    await t.end('completed', 'All done.');
    expect(kinds(await s.newDecisions())).toEqual([
      'Noop:turn_in_progress',
      'Sleep:no_runnable_work',
      'StayIdle:asleep',
    ]);
  });

  it('ends with consistent read models, and the stream replays to every recorded decision', async () => {
    const events = await s.eventsOf(s.agent);
    const recorded = events.filter((e) => e.type === 'SchedulerDecisionRecorded').length;
    const decisions = (await s.get('/decisions?limit=100')).body;
    expect(decisions.total).toBe(recorded);
    expect(decisions.items[0]).toMatchObject({
      kind: 'StayIdle',
      revision: events.findLast((e) => e.type === 'SchedulerDecisionRecorded')?.revision.toString(),
    });
    expect((await s.get('/decisions?limit=2')).body).toMatchObject({
      items: [{ kind: 'StayIdle' }, { kind: 'Sleep' }],
      total: recorded,
    });
    expect((await s.get('/state')).body).toMatchObject({
      posture: 'asleep',
      open_turn: null,
      turn_index: 10,
      replay_message_ids: [],
      revision: events.at(-1)?.revision.toString(),
      counts: { work_items: 4, completed: 4, open: 0 },
      projection_lag: { caught_up: true },
    });
    const completed = (await s.get('/work-items?filter=completed')).body;
    expect(completed.total).toBe(4);
    expect(completed.items.every((item: any) => item.result_summary !== null)).toBe(true);
    const replay = replayDecisions(events.map((e) => ({ type: e.type, data: e.data }) as AnyEvent));
    expect(replay.entries).toHaveLength(recorded);
    expect(replay.mismatches).toEqual([]);
  });
});
