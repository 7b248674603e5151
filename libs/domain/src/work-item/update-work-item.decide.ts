import type { AgentEvent } from '../agent/agent.events';
import { requireOpen, requireRegistered, requireWorkItem } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { releaseFocusIfCurrent } from '../focus/focus.decide';
import type { WorkItemFocusReleased } from '../focus/focus.events';
import { assertCommandMeta } from '../shared/command-meta';
import { assertValidId } from '../shared/ids';
import { waitingIntentCancellationsFor } from './waiting-intent.hook';
import type { UpdateWorkItem } from './work-item.commands';
import type { PlanArtifactRefreshed, WorkItemUpdated } from './work-item.events';
import type { OpenWorkItem, PlanArtifact, PlanStatus, TodoItem } from './work-item.state';
import {
  planArtifactDiffers,
  sameTodoList,
  validateBlockedBy,
  validateObjective,
  validatePlanArtifact,
  validatePlanStatus,
  validateRecheckAt,
  validateTodoList,
} from './work-item.validation';

/** The validated update: a key is present only when the command gave that field. */
type UpdateInput = {
  objective?: string;
  plan_status?: PlanStatus;
  todo_list?: TodoItem[];
  blocked_by?: string | null;
  recheck_at?: string | null;
  plan_artifact?: PlanArtifact;
};
type Changes = Omit<UpdateInput, 'plan_artifact'>;

function validateUpdate(data: UpdateWorkItem['data']): UpdateInput {
  const input: UpdateInput = {};
  if (data.objective !== undefined) input.objective = validateObjective(data.objective);
  if (data.plan_status !== undefined) input.plan_status = validatePlanStatus(data.plan_status);
  if (data.todo_list !== undefined) input.todo_list = validateTodoList(data.todo_list);
  if (data.blocked_by !== undefined) input.blocked_by = validateBlockedBy(data.blocked_by);
  if (data.recheck_at !== undefined) input.recheck_at = validateRecheckAt(data.recheck_at);
  if (data.plan_artifact !== undefined) input.plan_artifact = validatePlanArtifact(data.plan_artifact);
  return input;
}

/** Only what differs from the item. Clearing the blocker also clears a leftover recheck_at. */
function changedFields(item: OpenWorkItem, input: UpdateInput): Changes {
  const changes: Changes = {};
  if (input.objective !== undefined && input.objective !== item.objective) changes.objective = input.objective;
  if (input.plan_status !== undefined && input.plan_status !== item.plan_status)
    changes.plan_status = input.plan_status;
  if (input.todo_list !== undefined && !sameTodoList(input.todo_list, item.todo_list))
    changes.todo_list = input.todo_list;
  if (input.blocked_by !== undefined && input.blocked_by !== item.blocked_by) changes.blocked_by = input.blocked_by;
  if (input.recheck_at !== undefined && input.recheck_at !== item.recheck_at) changes.recheck_at = input.recheck_at;
  if (input.blocked_by === null && input.recheck_at === undefined && item.recheck_at !== null)
    changes.recheck_at = null;
  return changes;
}

function planRefresh(
  agentId: string,
  item: OpenWorkItem,
  fresh: PlanArtifact | undefined,
  at: string,
): PlanArtifactRefreshed[] {
  if (fresh === undefined || !planArtifactDiffers(item.plan_artifact, fresh)) return [];
  return [
    {
      type: 'PlanArtifactRefreshed',
      data: {
        agent_id: agentId,
        work_item_id: item.id,
        plan_artifact: fresh,
        previous_hash: item.plan_artifact.hash,
        revision: item.revision + 1,
        at,
      },
    },
  ];
}

/** Asserting needs_input or a blocker on the focused item releases the focus (needs_input named first). */
function focusRelease(state: AgentState, item: OpenWorkItem, input: UpdateInput, at: string): WorkItemFocusReleased[] {
  if (input.plan_status === 'needs_input') return releaseFocusIfCurrent(state, item.id, 'work_item_needs_input', at);
  if (typeof input.blocked_by === 'string') return releaseFocusIfCurrent(state, item.id, 'work_item_blocked', at);
  return [];
}

/**
 * UpdateWorkItem on an open item. Records [PlanArtifactRefreshed?, WorkItemUpdated?, cancelled
 * waits?, WorkItemFocusReleased?]; an update that changes nothing records nothing.
 */
export function decideUpdateWorkItem(command: UpdateWorkItem, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const workItemId = assertValidId(command.data.work_item_id, 'work_item_id');
  const input = validateUpdate(command.data);
  const item = requireOpen(requireWorkItem(state, workItemId), 'update');
  const refresh = planRefresh(agentId, item, input.plan_artifact, now);
  const changes = changedFields(item, input);
  const updated: WorkItemUpdated[] =
    Object.keys(changes).length === 0
      ? []
      : [
          {
            type: 'WorkItemUpdated',
            data: {
              agent_id: agentId,
              work_item_id: workItemId,
              ...changes,
              revision: item.revision + refresh.length + 1,
              at: now,
            },
          },
        ];
  const cancelled =
    input.blocked_by === null ? waitingIntentCancellationsFor(state, workItemId, 'blocker_cleared', now) : [];
  return [...refresh, ...updated, ...cancelled, ...focusRelease(state, item, input, now)];
}
