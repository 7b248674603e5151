import { given } from '../testing/decider-spec';
import { cmd, created, picked, registered } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import type { WaitPolicy } from '../task/task.state';

// Completion is the agent's assertion: a task of the item that still runs never refuses it
// (docs/domain-contract.md §3, CompleteWorkItem), whatever the task's wait policy.
const focused = [registered(), created('w-1'), picked('w-1')];

describe('CompleteWorkItem while a task of the item still runs', () => {
  it.each<WaitPolicy>(['blocking', 'background'])('completes the item; the %s task keeps running', (policy) => {
    const running = history(
      focused,
      wcmd.createTask('t-1', { wait_policy: policy, work_item_id: 'w-1' }),
      wcmd.taskStatus('t-1', 'running'),
    );
    given(running)
      .when(cmd.complete('w-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['WorkItemCompleted', 'WorkItemFocusReleased']);
        expect(after.work_items.get('w-1')?.state).toBe('completed');
        expect(after.tasks.get('t-1')?.status).toBe('running');
      });
  });
});
