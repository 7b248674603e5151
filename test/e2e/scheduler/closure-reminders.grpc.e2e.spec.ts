import { runtimeGrpcClient } from '../../support/grpc';
import { projected } from '../../support/http';
import { schedulerSuite } from './scheduler-suite';

/**
 * Closure, the runtime posture and reminders over gRPC (docs/domain-contract.md §2, issue 17
 * items 4-5): GetState, the decisions, Activate's context and the round, round-close and heartbeat
 * replies carry what HTTP carries (null fields absent).
 */
describe('closure and reminders over gRPC', () => {
  const s = schedulerSuite({
    scheduler: false,
    env: { REMINDER_ROUNDS_WITHOUT_CHANGE: '2', REMINDER_STALE_TODO_ROUNDS: '3' },
  });
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let host: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  const ok = async (method: string, request: object = {}): Promise<any> => {
    const result = await host(method, { agent_id: s.agent, ...request });
    expect(result.error).toBeNull();
    return result.reply;
  };
  const state = async () => {
    await projected(s.app);
    return ok('GetState');
  };

  beforeAll(() => {
    grpc = runtimeGrpcClient(s.app);
    host = grpc.as('tok-host');
  });
  afterAll(() => grpc?.close());

  it('GetState: closure, runtime posture awaiting_task, and the same closure as HTTP', async () => {
    const fresh = await state();
    expect(fresh).toMatchObject({
      runtime_posture: 'awake_idle',
      closure: { closure: 'completed', reason: 'nothing_waiting', evidence: [] },
      next_decision: { closure: { closure: 'completed', reason: 'nothing_waiting' } },
    });
    expect(fresh.last_turn_terminal).toBeNull();
    expect(fresh.runtime_error).toBeNull();
    await ok('CreateTask', { task_id: 'build', kind: 'ci', wait_policy: 'blocking' });
    const waiting = await state();
    expect(waiting).toMatchObject({
      posture: 'awake_idle',
      runtime_posture: 'awaiting_task',
      closure: { closure: 'waiting', reason: 'waiting_task', evidence: ['task:build:queued:blocking'] },
    });
    const http = (await s.get('/state')).body;
    expect(waiting.closure).toEqual(http.closure);
    await ok('UpdateTaskStatus', { task_id: 'build', status: 'cancelled' });
  });

  it('a turn: reminders on RecordRound, Heartbeat and CloseRound; Activate carries the context reminders and the closure', async () => {
    await ok('CreateWorkItem', {
      work_item_id: 'w-1',
      objective: 'parse',
      todo_list: [
        { text: 'draft the parser', state: 'in_progress' },
        { text: 'ship it', state: 'pending' },
      ],
    });
    await ok('PickWorkItem', { work_item_id: 'w-1' });
    await ok('EnqueueMessage', { kind: 'internal_followup', body: { text: 'go on' } });
    let activation = await ok('Activate');
    while (activation.decision.kind !== 'StartModelTurn') activation = await ok('Activate');
    expect(activation.decision.closure).toMatchObject({ closure: 'continuable', reason: 'runnable_work' });
    expect(activation.context.reminders).toEqual([]);
    const turn_id = activation.turn.turn_id;

    expect((await ok('RecordRound', { turn_id, round_id: 'r-1', text: 'reading' })).reminders).toEqual([]);
    const second = await ok('RecordRound', { turn_id, round_id: 'r-2', text: 'still reading' });
    expect(second.reminders).toEqual([
      expect.objectContaining({ kind: 'rounds_without_work_item_change', work_item_id: 'w-1' }),
    ]);
    expect((await ok('Heartbeat', { turn_id })).reminders.map((r: any) => r.kind)).toEqual([
      'rounds_without_work_item_change',
    ]);
    await ok('RecordRound', { turn_id, round_id: 'r-3', text: 'more' });
    const closed = await ok('CloseRound', { turn_id, round_id: 'r-3' });
    expect(closed.reminders.map((r: any) => [r.kind, r.todo?.text ?? null])).toEqual([
      ['rounds_without_work_item_change', null],
      ['stale_in_progress_todo', 'draft the parser'],
    ]);
    expect((await state()).closure).toMatchObject({ closure: 'continuable', reason: 'turn_in_progress' });

    await ok('RecordRound', { turn_id, round_id: 'r-4', text: 'Parser drafted.' });
    await ok('CompleteWorkItem', { work_item_id: 'w-1', round_id: 'r-4' });
    const completed = await ok('CloseRound', { turn_id, round_id: 'r-4' });
    expect(completed.reminders).toEqual([
      expect.objectContaining({
        kind: 'completed_with_unfinished_todos',
        work_item_id: 'w-1',
        todo: { text: 'draft the parser', state: 'in_progress' },
      }),
    ]);
    await ok('TurnTerminal', { turn_id, terminal_kind: 'failed', last_assistant_message: 'the build broke' });
    expect(await state()).toMatchObject({
      last_turn_terminal: { turn_id, terminal_kind: 'failed' },
      closure: { closure: 'failed', reason: 'last_turn_failed' },
    });
    const decisions = (await ok('ListDecisions', { limit: 100 })).items;
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.every((d: any) => typeof d.closure?.closure === 'string')).toBe(true);

    await ok('EnqueueMessage', { kind: 'internal_followup', body: { text: 'wrap up' } });
    const next = await ok('Activate');
    expect(next.context.reminders.map((r: any) => r.kind)).toEqual(['completed_with_unfinished_todos']);
    expect((await ok('GetContext')).reminders.map((r: any) => r.kind)).toEqual(['completed_with_unfinished_todos']);
    await ok('TurnTerminal', { turn_id: next.turn.turn_id, terminal_kind: 'completed' });
    expect((await state()).closure).toMatchObject({ closure: 'completed', reason: 'last_turn_completed' });
  });
});
