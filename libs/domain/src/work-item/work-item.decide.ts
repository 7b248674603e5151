import type { AgentEvent } from '../agent/agent.events';
import { requireRegistered, requireWorkItem } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { releaseFocusIfCurrent } from '../focus/focus.decide';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { todoCounts } from '../views/todo';
import { waitingIntentCancellationsFor } from './waiting-intent.hook';
import type { CompleteWorkItem, CreateWorkItem } from './work-item.commands';
import type { WorkItemCompleted, WorkItemCreated } from './work-item.events';
import { validateObjective, validatePlanArtifact, validatePlanStatus, validateTodoList } from './work-item.validation';

export { decideUpdateWorkItem } from './update-work-item.decide';

/** CreateWorkItem: a new open item at revision 1. Creating is not picking: the focus is untouched. */
export function decideCreateWorkItem(command: CreateWorkItem, state: AgentState): WorkItemCreated[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const { data } = command;
  const workItemId = assertValidId(data.work_item_id, 'work_item_id');
  const objective = validateObjective(data.objective);
  const planStatus = data.plan_status === undefined ? 'draft' : validatePlanStatus(data.plan_status);
  const todoList = data.todo_list === undefined ? [] : validateTodoList(data.todo_list);
  const planArtifact = validatePlanArtifact(data.plan_artifact);
  if (state.work_items.get(workItemId)) {
    throw new DomainError(
      'already_exists',
      { resource: 'work_item', work_item_id: workItemId },
      `work item ${workItemId} already exists`,
    );
  }
  return [
    {
      type: 'WorkItemCreated',
      data: {
        agent_id: agentId,
        work_item_id: workItemId,
        objective,
        plan_status: planStatus,
        todo_list: todoList,
        plan_artifact: planArtifact,
        revision: 1,
        at: now,
      },
    },
  ];
}

/**
 * A completion inside a model turn can only have its report promoted through an open round it
 * names. Without `round_id` during an open turn, or naming a round that is not open, the
 * promotion is skipped, and the event and the reply say so (docs/domain-contract.md §4).
 */
function reportPromotionSkipped(state: AgentState, roundId: string | null): boolean {
  if (roundId === null) return state.open_turn_id !== null;
  return state.rounds.get(roundId)?.status !== 'open';
}

/**
 * CompleteWorkItem: open -> completed (clearing blocked_by and recheck_at), cancels the item's
 * waits, releases the focus if focused. Unfinished todos never refuse it. Completing a completed
 * item records nothing.
 */
export function decideCompleteWorkItem(command: CompleteWorkItem, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const workItemId = assertValidId(command.data.work_item_id, 'work_item_id');
  const roundId = command.data.round_id === undefined ? null : assertValidId(command.data.round_id, 'round_id');
  const item = requireWorkItem(state, workItemId);
  if (item.state === 'completed') return [];
  const counts = todoCounts(item.todo_list);
  const completed: WorkItemCompleted = {
    type: 'WorkItemCompleted',
    data: {
      agent_id: agentId,
      work_item_id: workItemId,
      round_id: roundId,
      completed_with_unfinished_todos: counts.unfinished > 0,
      unfinished_todo_count: counts.unfinished,
      pending_todo_count: counts.pending,
      in_progress_todo_count: counts.in_progress,
      revision: item.revision + 1,
      at: now,
      ...(reportPromotionSkipped(state, roundId) && { report_promotion: 'skipped_no_round' as const }),
    },
  };
  return [
    completed,
    ...waitingIntentCancellationsFor(state, workItemId, 'work_item_completed', now),
    ...releaseFocusIfCurrent(state, workItemId, 'work_item_completed', now),
  ];
}
