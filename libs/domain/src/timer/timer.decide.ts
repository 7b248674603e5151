import type { AgentEvent } from '../agent/agent.events';
import { requireAbsent, requireOpen, requireRecord, requireRegistered, requireWorkItem } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { validationFailed } from '../shared/domain-error';
import {
  optionalTrimmedText,
  optionalValidId,
  requireIntegerInRange,
  requireTimestamp,
  requireValidId,
} from '../shared/validation';
import { intentCancelled } from '../waiting-intent/waiting-intent.builders';
import { timerCancelled, timerCreated, type NewTimer } from './timer.builders';
import type { CancelTimer, CreateTimer } from './timer.commands';
import type { TimerCreated } from './timer.events';
import { addMs } from './timer.time';

export { decideFireTimer } from './fire-timer.decide';

const DAY_MS = 86_400_000;
/** A timer is due at most a year ahead; an interval is 1 s .. 1 year (no hot loops). */
export const TIMER_MAX_DELAY_MS = 366 * DAY_MS;
export const TIMER_MIN_INTERVAL_MS = 1_000;
export const RESUME_TEXT_MAX_LENGTH = 2000;

/** Exactly one of fire_at and duration_ms (counted from meta.now). */
function dueAt(data: CreateTimer['data'], now: string): string {
  const hasFireAt = data.fire_at !== undefined && data.fire_at !== null;
  const hasDuration = data.duration_ms !== undefined && data.duration_ms !== null;
  if (hasFireAt === hasDuration) throw validationFailed('fire_at', 'exactly_one_of_fire_at_or_duration_ms');
  if (hasFireAt) return requireTimestamp(data.fire_at, 'fire_at');
  return addMs(now, requireIntegerInRange(data.duration_ms, 'duration_ms', 0, TIMER_MAX_DELAY_MS));
}

function validateCreateTimer(data: CreateTimer['data'], now: string): NewTimer {
  return {
    timer_id: requireValidId(data.timer_id, 'timer_id'),
    fire_at: dueAt(data, now),
    interval_ms:
      data.interval_ms === undefined || data.interval_ms === null
        ? null
        : requireIntegerInRange(data.interval_ms, 'interval_ms', TIMER_MIN_INTERVAL_MS, TIMER_MAX_DELAY_MS),
    work_item_id: optionalValidId(data.work_item_id, 'work_item_id'),
    resume_text: optionalTrimmedText(data.resume_text, 'resume_text', {
      min: 1,
      max: RESUME_TEXT_MAX_LENGTH,
      shape: 'lines',
    }),
    intent_id: null,
  };
}

/** CreateTimer: scheduled at fire_at (or now + duration_ms); bound to an open item when given. */
export function decideCreateTimer(command: CreateTimer, state: AgentState): TimerCreated[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const timer = validateCreateTimer(command.data, now);
  if (timer.work_item_id !== null) requireOpen(requireWorkItem(state, timer.work_item_id), 'set a timer on');
  requireAbsent(state.timers, timer.timer_id, 'timer');
  return [timerCreated(agentId, timer, now)];
}

/**
 * CancelTimer: idempotent (a fired or cancelled timer records nothing). Cancelling the timer of
 * an active timer wait also cancels that intent: it could never be triggered any more.
 */
export function decideCancelTimer(command: CancelTimer, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const timer = requireRecord(state.timers, requireValidId(command.data.timer_id, 'timer_id'), 'timer');
  if (timer.status !== 'scheduled') return [];
  const intent = timer.intent_id === null ? undefined : state.waiting_intents.get(timer.intent_id);
  const intents = intent?.status === 'active' ? [intentCancelled(agentId, intent, 'cancelled_by_caller', now)] : [];
  return [timerCancelled(agentId, timer, 'cancelled_by_caller', now), ...intents];
}
