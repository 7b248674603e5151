import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import type { TimerRecord, TimerStatus } from '../timer/timer.state';
import { type ListReply, page, parseListParam } from './list';

export type TimerView = TimerRecord & { due: boolean | null };

/** `due` (scheduled and fire_at <= now) only when the caller gives a time; else null. */
export function toTimerView(timer: TimerRecord, now: string | null = null): TimerView {
  const due = now === null ? null : timer.status === 'scheduled' && compareInstants(timer.fire_at, now) <= 0;
  return { ...timer, due };
}

const bySoonest = (a: TimerRecord, b: TimerRecord): number =>
  compareInstants(a.fire_at, b.fire_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * An interval timer does not fire while the agent is stopped, nor while it is paused with this
 * timer's tick still queued (at most one pending fire): it stays due, and fires once on start or
 * resume with the periods it missed. One-shot timers are never held.
 */
export function isTimerHeld(state: AgentState, timer: TimerRecord): boolean {
  if (timer.interval_ms === null) return false;
  if (state.posture === 'stopped') return true;
  if (state.posture !== 'paused') return false;
  return state.queue.some((id) => {
    const message = state.messages.get(id);
    return message?.kind === 'timer_tick' && message.causation_id === timer.id && message.status === 'queued';
  });
}

/** Scheduled timers whose fire_at has come (overdue ones included, e.g. after recovery), soonest first; held ones wait. */
export function dueTimers(state: AgentState, now: string): TimerRecord[] {
  return state.timers
    .values()
    .filter(
      (timer) => timer.status === 'scheduled' && compareInstants(timer.fire_at, now) <= 0 && !isTimerHeld(state, timer),
    )
    .sort(bySoonest);
}

/** Scheduled timers, soonest first (what an idle agent waits for). */
export function scheduledTimers(state: AgentState): TimerRecord[] {
  return state.timers
    .values()
    .filter((timer) => timer.status === 'scheduled')
    .sort(bySoonest);
}

export const TIMER_LIST_STATUSES: readonly (TimerStatus | 'all')[] = ['all', 'scheduled', 'fired', 'cancelled'];
export type TimerListQuery = { status?: TimerStatus | 'all'; limit?: number; now?: string };

/** GET timers: soonest fire_at first, then id. */
export function listTimers(state: AgentState, query: TimerListQuery = {}): ListReply<TimerView> {
  const status = parseListParam(query.status, 'status', TIMER_LIST_STATUSES, 'all');
  const matches = state.timers
    .values()
    .filter((t) => status === 'all' || t.status === status)
    .sort(bySoonest);
  return page(matches, query.limit, (timer) => toTimerView(timer, query.now ?? null));
}
