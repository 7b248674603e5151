import type { CandidateClass } from './types';

/** Scheduler order (docs/domain-contract.md §5): what the scheduler takes first comes first. */
export const CLASS_ORDER: CandidateClass[] = [
  'current_runnable',
  'triggered_blocked',
  'queued_runnable',
  'waiting_for_operator',
  'blocked',
  'completed_recent',
];

export const CLASS_LABELS: Record<CandidateClass, string> = {
  current_runnable: 'Current',
  triggered_blocked: 'Triggered',
  queued_runnable: 'Queued',
  waiting_for_operator: 'Waiting for operator',
  blocked: 'Blocked',
  completed_recent: 'Recently completed',
};

export const CLASS_SHORT: Record<CandidateClass, string> = {
  current_runnable: 'Cur',
  triggered_blocked: 'Trig',
  queued_runnable: 'Queue',
  waiting_for_operator: 'Op',
  blocked: 'Blk',
  completed_recent: 'Done',
};

/** `waiting_for_operator` -> `waiting for operator`. */
export const words = (value: string): string => value.replace(/_/g, ' ');

/** A short relative age: `12 s ago`, `in 3 min`. */
export function relative(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((now - at) / 1000);
  const size = Math.abs(seconds);
  const text =
    size < 60
      ? `${size} s`
      : size < 3600
        ? `${Math.round(size / 60)} min`
        : size < 86_400
          ? `${Math.round(size / 3600)} h`
          : `${Math.round(size / 86_400)} d`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

/** `2026-01-01 10:00:00 UTC`: absolute, unambiguous. */
export function absolute(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
