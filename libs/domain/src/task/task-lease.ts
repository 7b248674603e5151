import { addMs } from '../timer/timer.time';
import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import { requireIntegerInRange } from '../shared/validation';
import { isTerminalTaskStatus, type TaskRecord } from './task.state';

/** A task lease lasts 1 s .. 7 days; the executor renews it with heartbeats. */
export const TASK_LEASE_MIN_MS = 1_000;
export const TASK_LEASE_MAX_MS = 7 * 24 * 3_600_000;

export function optionalExpectedDuration(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  return requireIntegerInRange(value, 'expected_duration_ms', TASK_LEASE_MIN_MS, TASK_LEASE_MAX_MS);
}

export const leaseFields = (expected: number, now: string) => ({
  expected_duration_ms: expected,
  lease_expires_at: addMs(now, expected),
});

/** Active tasks whose lease has run out at `now`, soonest first (the scheduler interrupts each). */
export function expiredTasks(state: AgentState, now: string): TaskRecord[] {
  return leasedTasks(state).filter((task) => compareInstants(task.lease_expires_at!, now) <= 0);
}

/** Active tasks with a lease, soonest expiry first. */
export function leasedTasks(state: AgentState): TaskRecord[] {
  return state.tasks
    .values()
    .filter((task) => task.lease_expires_at !== null && !isTerminalTaskStatus(task.status))
    .sort((a, b) => compareInstants(a.lease_expires_at!, b.lease_expires_at!));
}

/** `overdue`: an active task past its expected end (its lease lapsed and the scheduler has not interrupted it yet). */
export const isOverdue = (task: TaskRecord, now: string): boolean =>
  typeof task.lease_expires_at === 'string' &&
  !isTerminalTaskStatus(task.status) &&
  compareInstants(task.lease_expires_at, now) <= 0;
