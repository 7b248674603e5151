import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { given } from '../testing/decider-spec';
import { cmd, registered } from '../testing/fixtures';
import { nextDecision, tcmd } from '../testing/turn-fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { contextProjection } from '../views/context';

// Issue 15 item 1: a task_result message whose terminal status resolved a task_result wait
// re-enters the model whatever the focus, and its turn is bound to the message's item.

const agent = [registered()];
const waitingOnBuild = (...before: Parameters<typeof history>[1][]): AgentEvent[] =>
  history(
    agent,
    cmd.create('w-1'),
    cmd.create('w-2'),
    cmd.pick('w-1'),
    wcmd.createTask('t-1', { work_item_id: 'w-1' }),
    wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1', reason: 'the build must pass' }),
    ...before,
  );

describe('a task result that resolved a task_result wait', () => {
  it('given the agent rewrote its blocker and has no focus, when the task completes, then it starts a model turn', () => {
    const events = history(
      waitingOnBuild(cmd.update('w-1', { blocked_by: 'the build, and a review' })),
      wcmd.taskStatus('t-1', 'completed', { message_id: 'm-1' }),
    );
    const state = replay(events);
    expect(state.current_work_item_id).toBeNull();
    expect(state.work_items.get('w-1')!.blocked_by).toBe('the build, and a review');
    expect(nextDecision(events)).toMatchObject({
      kind: 'StartModelTurn',
      reason: 'task_result_resolved_wait',
      message_id: 'm-1',
      work_item_id: 'w-1',
      evidence: expect.arrayContaining(['model_reentry:task_result_resolved_wait', 'intent:i-1']),
    });
  });

  it('with no focus, the activation first picks the item (reason reentry) and binds the turn to it', () => {
    const events = history(waitingOnBuild(), wcmd.taskStatus('t-1', 'completed', { message_id: 'm-1' }));
    expect(replay(events).current_work_item_id).toBeNull();
    given(events)
      .when(tcmd.startTurn('turn-1', 'm-1'))
      .thenState((after, emitted) => {
        expect(typesOf(emitted)).toEqual(['WorkItemPicked', 'MessageDequeued', 'TurnStarted']);
        expect(emitted[0].data).toMatchObject({ work_item_id: 'w-1', reason: 'reentry', previous_work_item_id: null });
        expect(emitted[2].data).toMatchObject({
          work_item_id: 'w-1',
          consumed_tick_key: `work_queue:continue_active:w-1:${after.work_items.get('w-1')!.revision}`,
        });
        expect(after.current_work_item_id).toBe('w-1');
      });
  });

  it('with another item in focus, the focus stays, the turn is bound to the result item, whose context comes first', () => {
    const events = history(
      waitingOnBuild(cmd.pick('w-2')),
      wcmd.taskStatus('t-1', 'failed', { message_id: 'm-1', detail: 'lint' }),
    );
    expect(nextDecision(events)).toMatchObject({ kind: 'StartModelTurn', reason: 'task_result_resolved_wait' });
    given(events)
      .when(tcmd.startTurn('turn-1', 'm-1'))
      .thenState((after, emitted) => {
        expect(typesOf(emitted)).toEqual(['MessageDequeued', 'TurnStarted']);
        expect(emitted[1].data).toMatchObject({ work_item_id: 'w-1', consumed_tick_key: null });
        expect(after.current_work_item_id).toBe('w-2');
        const context = contextProjection(after);
        expect(context.sections.map((s) => s.name).slice(0, 2)).toEqual(['turn_work_item', 'current_work_item']);
        expect(context.sections[0].content).toMatchObject({ id: 'w-1' });
        expect(context.sections[1].content).toMatchObject({ id: 'w-2' });
        const tiny = contextProjection(after, { budget_tokens: 1 });
        expect(tiny.sections.map((s) => s.name)).toEqual(['turn_work_item', 'current_work_item']);
      });
  });

  it('a task result nobody waited for still only reduces when it is not for the focus', () => {
    const events = history(
      agent,
      cmd.create('w-1'),
      cmd.create('w-2'),
      cmd.pick('w-2'),
      wcmd.createTask('t-1', { work_item_id: 'w-1' }),
      wcmd.taskStatus('t-1', 'completed', { message_id: 'm-1' }),
    );
    expect(nextDecision(events)).toMatchObject({ kind: 'ReduceMessageOnly', reason: 'task_result_not_for_focus' });
  });
});
