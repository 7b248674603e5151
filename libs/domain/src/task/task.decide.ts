import type { AgentEvent } from '../agent/agent.events';
import { requireAbsent, requireOpen, requireRecord, requireRegistered, requireWorkItem } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { requireTrimmedText } from '../shared/text';
import {
  optionalOneOf,
  optionalTrimmedText,
  optionalValidId,
  requireOneOf,
  requireValidId,
} from '../shared/validation';
import { taskResultEvents } from './task-result';
import type { CreateTask, UpdateTaskStatus } from './task.commands';
import { TASK_STATUS_EVENT_TYPES, type TaskCreated, type TaskStatusChanged } from './task.events';
import { leaseFields, optionalExpectedDuration } from './task-lease';
import {
  isTerminalTaskStatus,
  type TaskInterruptReason,
  TASK_STATUSES,
  type TaskRecord,
  type TaskStatus,
  WAIT_POLICIES,
} from './task.state';

export const TASK_KIND_MAX_LENGTH = 100;
export const TASK_SUMMARY_MAX_LENGTH = 2000;
export const TASK_DETAIL_MAX_LENGTH = 4000;

/** queued < running < cancelling < terminal (all four terminal statuses share the last phase). */
const PHASE: Record<TaskStatus, number> = {
  queued: 0,
  running: 1,
  cancelling: 2,
  completed: 3,
  failed: 3,
  cancelled: 3,
  interrupted: 3,
};

/** advance: a later phase; repeat: the same status (idempotent); stale: an earlier phase, or another terminal. */
export type TaskTransition = 'advance' | 'repeat' | 'stale';

export function taskTransition(
  current: TaskStatus,
  requested: TaskStatus,
  interruptReason: TaskInterruptReason | null = null,
): TaskTransition {
  if (current === requested) return 'repeat';
  // The one exception to forward-only: the executor's own terminal replaces a lease interruption.
  if (interruptReason === 'lease_expired' && isTerminalTaskStatus(requested)) return 'advance';
  return PHASE[requested] > PHASE[current] ? 'advance' : 'stale';
}

/** CreateTask: a new task, queued. Task presence alone never makes the agent wait. */
export function decideCreateTask(command: CreateTask, state: AgentState): TaskCreated[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const { data } = command;
  const taskId = requireValidId(data.task_id, 'task_id');
  const kind = requireTrimmedText(data.kind, 'kind', { min: 1, max: TASK_KIND_MAX_LENGTH });
  const waitPolicy = optionalOneOf(data.wait_policy, 'wait_policy', WAIT_POLICIES, 'background');
  const workItemId = optionalValidId(data.work_item_id, 'work_item_id');
  const summary = optionalTrimmedText(data.summary, 'summary', {
    min: 1,
    max: TASK_SUMMARY_MAX_LENGTH,
    shape: 'lines',
  });
  const expected = optionalExpectedDuration(data.expected_duration_ms);
  if (workItemId !== null) requireOpen(requireWorkItem(state, workItemId), 'attach a task to');
  requireAbsent(state.tasks, taskId, 'task');
  return [
    {
      type: 'TaskCreated',
      data: {
        agent_id: agentId,
        task_id: taskId,
        kind,
        wait_policy: waitPolicy,
        work_item_id: workItemId,
        summary,
        status: 'queued',
        at: now,
        ...(expected !== null && leaseFields(expected, now)),
      },
    },
  ];
}

export function statusChanged(
  agentId: string,
  task: TaskRecord,
  status: Exclude<TaskStatus, 'queued'>,
  detail: string | null,
  at: string,
): TaskStatusChanged {
  const data = {
    agent_id: agentId,
    task_id: task.id,
    work_item_id: task.work_item_id,
    previous_status: task.status,
    status,
    detail,
    at,
  };
  return { type: TASK_STATUS_EVENT_TYPES[status], data } as TaskStatusChanged;
}

/**
 * UpdateTaskStatus: only forward. A stale or repeated status records nothing (the reply warns
 * about a stale one). A terminal status: [task event, intents resolved, blockers cleared, task_result queued].
 */
export function decideUpdateTaskStatus(command: UpdateTaskStatus, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const { data } = command;
  const taskId = requireValidId(data.task_id, 'task_id');
  const status = requireOneOf(data.status, 'status', TASK_STATUSES);
  const detail = optionalTrimmedText(data.detail, 'detail', { min: 1, max: TASK_DETAIL_MAX_LENGTH, shape: 'lines' });
  const messageId = optionalValidId(data.message_id, 'message_id');
  const task = requireRecord(state.tasks, taskId, 'task');
  if (status === 'queued' || taskTransition(task.status, status, task.interrupt_reason) !== 'advance') return [];
  const changed = statusChanged(agentId, task, status, detail, now);
  if (!isTerminalTaskStatus(status)) return [changed];
  return [changed, ...taskResultEvents(state, agentId, task, { status, detail, message_id: messageId }, now)];
}
