import { decideNextAction } from '@app/domain';
import { createProjectionRunner, SchedulerQueries } from '@app/read-models';
import { type Build, planArtifact, ProjectionHarness } from './support/projection-harness';

const TABLES = ['scheduler_state', 'decisions', 'briefs', 'delivery_summaries'];

const record: Build = (meta, state) => ({
  type: 'RecordDecision',
  data: { decision: decideNextAction(state, meta.now) },
  meta,
});
/** A tick decision: recorded and emitted in one append, queued as `messageId`. */
const recordTick =
  (messageId: string): Build =>
  (meta, state) => ({
    type: 'RecordDecision',
    data: { decision: decideNextAction(state, meta.now), message_id: messageId },
    meta,
  });
const start =
  (turnId: string, messageId: string): Build =>
  (meta) => ({ type: 'StartTurn', data: { turn_id: turnId, message_id: messageId, lease_ttl_ms: 60_000 }, meta });

/** A short agent life: a queued_available tick, a turn that completes its focus with a report, a failed turn, sleep. */
function lifeScript(agentId: string): Build[] {
  return [
    (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }),
    (meta) => ({
      type: 'CreateWorkItem',
      data: {
        work_item_id: 'w-1',
        objective: 'one',
        plan_artifact: planArtifact('w-1'),
        todo_list: [{ text: 'do', state: 'pending' }],
      },
      meta,
    }),
    (meta) => ({
      type: 'CreateWorkItem',
      data: { work_item_id: 'w-2', objective: 'two', plan_artifact: planArtifact('w-2') },
      meta,
    }),
    recordTick('m-tick'),
    record,
    start('turn-1', 'm-tick'),
    (meta) => ({ type: 'PickWorkItem', data: { work_item_id: 'w-1', reason: 'first' }, meta }),
    (meta) => ({
      type: 'RecordRound',
      data: {
        turn_id: 'turn-1',
        round_id: 'r-1',
        text: 'Did it.',
        tool_calls: [{ tool_call_id: 'tc-1', name: 'complete' }],
      },
      meta,
    }),
    (meta) => ({ type: 'CompleteWorkItem', data: { work_item_id: 'w-1', round_id: 'r-1' }, meta }),
    (meta) => ({ type: 'CloseRound', data: { turn_id: 'turn-1', round_id: 'r-1' }, meta }),
    (meta) => ({
      type: 'TurnTerminal',
      data: { turn_id: 'turn-1', terminal_kind: 'completed', last_assistant_message: 'Done.' },
      meta,
    }),
    (meta) => ({
      type: 'EnqueueMessage',
      data: { message_id: 'm-op', kind: 'operator_prompt', body: 'and now?', authority: 'operator_instruction' },
      meta,
    }),
    record,
    start('turn-2', 'm-op'),
    (meta) => ({
      type: 'TurnTerminal',
      data: { turn_id: 'turn-2', terminal_kind: 'failed', last_assistant_message: 'It broke.' },
      meta,
    }),
    (meta) => ({ type: 'UpdateWorkItem', data: { work_item_id: 'w-2', blocked_by: 'later' }, meta }),
    record,
    record,
  ];
}

describe('the scheduler read models (scheduler_state, decisions, briefs, delivery summaries)', () => {
  let world: ProjectionHarness;
  const dump = () => world.dump(TABLES);

  beforeAll(async () => {
    world = await ProjectionHarness.open('scheduler');
    await world.run('agent-a', lifeScript('agent-a'));
    await world.run('agent-b', lifeScript('agent-b'));
    await world.project();
  });
  afterAll(() => world?.close());

  it('keeps one scheduler_state row per agent: the domain projection at the last event, with its columns', async () => {
    const state = await new SchedulerQueries(world.pool).state('agent-a');
    const { rows } = await world.pool.query(
      "SELECT posture, open_turn_id, queued_messages, open_work_items, revision::text FROM scheduler_state WHERE agent_id = 'agent-a'",
    );
    expect(rows).toEqual([
      { posture: 'asleep', open_turn_id: null, queued_messages: 0, open_work_items: 1, revision: state?.revision },
    ]);
    expect(state).toMatchObject({
      agent_id: 'agent-a',
      posture: 'asleep',
      open_turn: null,
      next_due_at: null,
      counts: { completed: 1, open: 1, blocked: 1, briefs: 2 },
      last_decision: { kind: 'StayIdle' },
    });
    expect(state?.projected_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('keeps every recorded decision, newest first, with its stream revision', async () => {
    const decisions = await new SchedulerQueries(world.pool).decisions('agent-a', 100);
    expect(decisions.items.map((d) => `${d.kind}:${d.reason}`)).toEqual([
      'StayIdle:asleep',
      'Sleep:no_runnable_work',
      'StartModelTurn:operator_input',
      'StartModelTurn:scheduler_tick',
      'EmitSystemTick:queued_available',
    ]);
    expect(decisions.total).toBe(5);
    const revisions = decisions.items.map((d) => BigInt(d.revision));
    expect([...revisions].sort((a, b) => (a < b ? 1 : -1))).toEqual(revisions);
    expect(decisions.items[4]).toMatchObject({
      idempotency_key: 'work_queue:queued_available:w-1:1',
      work_item_id: 'w-1',
      recorded_at: '2026-01-01T00:00:04.000Z',
    });
    expect((await new SchedulerQueries(world.pool).decisions('agent-a', 1)).items).toHaveLength(1);
  });

  it('keeps briefs and delivery summaries, filtered by item and kind', async () => {
    const queries = new SchedulerQueries(world.pool);
    const briefs = await queries.briefs('agent-a', {});
    expect(briefs.items.map((b) => [b.id, b.kind, b.work_item_id])).toEqual([
      ['brief_turn_turn-2', 'failure', null],
      ['brief_round_r-1', 'result', 'w-1'],
    ]);
    expect(await queries.briefs('agent-a', { work_item_id: 'w-1' })).toMatchObject({
      total: 1,
      items: [{ text: 'Did it.' }],
    });
    expect(await queries.briefs('agent-a', { kind: 'failure' })).toMatchObject({
      total: 1,
      items: [{ text: 'It broke.' }],
    });
    const summaries = await queries.deliverySummaries('agent-a', { work_item_id: 'w-1' });
    expect(summaries.items).toEqual([
      expect.objectContaining({
        id: 'ds_r-1',
        text: 'Did it.',
        evidence: expect.objectContaining({ tool_call_ids: ['tc-1'] }),
      }),
    ]);
  });

  it('changes nothing when every event is delivered again', async () => {
    const before = await dump();
    await world.pool.query("UPDATE projection_checkpoints SET position = -1 WHERE projection = 'read_models'");
    await world.project();
    expect(await dump()).toEqual(before);
  });

  it('rebuilds from position 0 to exactly the live read models', async () => {
    const live = await dump();
    expect(await createProjectionRunner(world.pool, world.store).rebuild()).toBe(world.events);
    expect(await dump()).toEqual(live);
  });
});
