import { eventGuard } from '../shared/event-guard';
import type { TaskInterruptReason, TaskStatus, WaitPolicy } from './task.state';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type TaskCreated = {
  type: 'TaskCreated';
  data: {
    agent_id: string;
    task_id: string;
    kind: string;
    wait_policy: WaitPolicy;
    work_item_id: string | null;
    summary: string | null;
    status: 'queued';
    at: string;
    /** Present only for a task with a lease. */
    expected_duration_ms?: number;
    lease_expires_at?: string;
  };
};

/** The executor's heartbeat: the lease runs again from now. */
export type TaskLeaseRenewed = {
  type: 'TaskLeaseRenewed';
  data: { agent_id: string; task_id: string; expected_duration_ms: number; lease_expires_at: string; at: string };
};

/** Every forward status move carries the same data; the type names the new phase. */
type TaskStatusData<S extends TaskStatus> = {
  agent_id: string;
  task_id: string;
  work_item_id: string | null;
  previous_status: TaskStatus;
  status: S;
  detail: string | null;
  at: string;
};

export type TaskStarted = { type: 'TaskStarted'; data: TaskStatusData<'running'> };
export type TaskCancelling = { type: 'TaskCancelling'; data: TaskStatusData<'cancelling'> };
export type TaskCompleted = { type: 'TaskCompleted'; data: TaskStatusData<'completed'> };
export type TaskFailed = { type: 'TaskFailed'; data: TaskStatusData<'failed'> };
export type TaskCancelled = { type: 'TaskCancelled'; data: TaskStatusData<'cancelled'> };
/** `reason: lease_expired` when the scheduler saw the lease lapse (absent when the executor reported it). */
export type TaskInterrupted = {
  type: 'TaskInterrupted';
  data: TaskStatusData<'interrupted'> & { reason?: TaskInterruptReason };
};

export type TaskStatusChanged =
  TaskStarted | TaskCancelling | TaskCompleted | TaskFailed | TaskCancelled | TaskInterrupted;
export type TaskEvent = TaskCreated | TaskLeaseRenewed | TaskStatusChanged;

/** The event type that records a move to `status` (queued is only ever the creation). */
export const TASK_STATUS_EVENT_TYPES = {
  running: 'TaskStarted',
  cancelling: 'TaskCancelling',
  completed: 'TaskCompleted',
  failed: 'TaskFailed',
  cancelled: 'TaskCancelled',
  interrupted: 'TaskInterrupted',
} as const satisfies Record<Exclude<TaskStatus, 'queued'>, TaskStatusChanged['type']>;

export const isTaskEvent = eventGuard<TaskEvent>([
  'TaskCreated',
  'TaskLeaseRenewed',
  ...Object.values(TASK_STATUS_EVENT_TYPES),
]);
