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
};

export function isTerminalTaskStatus(status: TaskStatus): status is TerminalTaskStatus {
  return (TERMINAL_TASK_STATUSES as readonly string[]).includes(status);
}
