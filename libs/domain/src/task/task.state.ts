// NOTE: stored format. These literals appear in events, snapshots and read models.

export type TerminalTaskStatus = 'completed' | 'failed' | 'cancelled' | 'interrupted';
export type TaskStatus = 'queued' | 'running' | 'cancelling' | TerminalTaskStatus;

export const TERMINAL_TASK_STATUSES: readonly TerminalTaskStatus[] = [
  'completed',
  'failed',
  'cancelled',
  'interrupted',
];
export const TASK_STATUSES: readonly TaskStatus[] = ['queued', 'running', 'cancelling', ...TERMINAL_TASK_STATUSES];

export type WaitPolicy = 'background' | 'blocking';
export const WAIT_POLICIES: readonly WaitPolicy[] = ['background', 'blocking'];

/** Why a task is `interrupted`: only a lease expiry is recorded (the executor's own `interrupted` has no reason). */
export type TaskInterruptReason = 'lease_expired';

export type TaskRecord = {
  id: string;
  kind: string;
  status: TaskStatus;
  /** Task presence alone never makes the agent wait, whatever the policy. */
  wait_policy: WaitPolicy;
  work_item_id: string | null;
  summary: string | null;
  /** The newest detail given with a status update. */
  detail: string | null;
  created_at: string;
  updated_at: string;
  /** The lease length (docs/domain-contract.md §3 Tasks): null when the task has no lease. */
  expected_duration_ms: number | null;
  /** Creation (or the last heartbeat) + expected_duration_ms; an active task past it is interrupted. */
  lease_expires_at: string | null;
  last_heartbeat_at: string | null;
  /** `lease_expired` when the runtime interrupted it: a later terminal from the executor replaces it. */
  interrupt_reason: TaskInterruptReason | null;
};

export function isTerminalTaskStatus(status: TaskStatus): status is TerminalTaskStatus {
  return (TERMINAL_TASK_STATUSES as readonly string[]).includes(status);
}
