import type { AgentEvent } from '../agent/agent.events';
import { requireRecord, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { requireNewMessageId } from '../queue/message.validation';
import { runtimeMessageQueued } from '../queue/queue.messages';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { compareInstants } from '../shared/time';
import { requireValidId } from '../shared/validation';
import { blockersCleared } from '../task/task-result';
import { isTimerHeld } from '../views/timer.view';
import { intentTriggered } from '../waiting-intent/waiting-intent.builders';
import type { WaitingIntentResolved } from '../waiting-intent/waiting-intent.events';
import type { FireTimer } from './timer.commands';
import type { TimerFired } from './timer.events';
import type { TimerRecord } from './timer.state';
import { missedPeriods, nextFireAt } from './timer.time';

function requireDue(timer: TimerRecord, now: string): void {
  if (compareInstants(now, timer.fire_at) < 0) {
    throw new DomainError(
      'invariant_violated',
      { rule: 'timer_not_due', timer_id: timer.id, fire_at: timer.fire_at },
      `timer ${timer.id} is not due`,
    );
  }
}

function timerFired(agentId: string, timer: TimerRecord, messageId: string, now: string): TimerFired {
  const interval = timer.interval_ms;
  return {
    type: 'TimerFired',
    data: {
      agent_id: agentId,
      timer_id: timer.id,
      work_item_id: timer.work_item_id,
      intent_id: timer.intent_id,
      fire_at: timer.fire_at,
      fired_at: now,
      fire_count: timer.fire_count + 1,
      next_fire_at: interval === null ? null : nextFireAt(timer.fire_at, interval, now),
      ...(interval !== null && { missed_periods: missedPeriods(timer.fire_at, interval, now) }),
      message_id: messageId,
      at: now,
    },
  };
}

/**
 * The bound timer wait: a one-shot timer's firing resolves it (and clears the blocker that still
 * says what it waited for, as a task result does); an interval timer's only triggers it (it stays active).
 */
function boundIntentEvents(state: AgentState, agentId: string, timer: TimerRecord, now: string): AgentEvent[] {
  const intent = timer.intent_id === null ? undefined : state.waiting_intents.get(timer.intent_id);
  if (intent?.status !== 'active') return [];
  if (timer.interval_ms !== null) {
    const trigger = { source: 'timer', event_id: timer.id, via: 'timer' as const, actor: null, has_payload: false };
    return [intentTriggered(agentId, intent, trigger, now)];
  }
  const resolved: WaitingIntentResolved = {
    type: 'WaitingIntentResolved',
    data: {
      agent_id: agentId,
      intent_id: intent.id,
      work_item_id: intent.work_item_id,
      task_id: null,
      task_status: null,
      timer_id: timer.id,
      at: now,
    },
  };
  return [resolved, ...blockersCleared(state, agentId, [intent], now)];
}

/**
 * FireTimer (the scheduler, when due; also overdue on recovery): [TimerFired, bound intent
 * resolved (one-shot) or triggered (interval), blocker cleared?, timer_tick queued]. A fired or
 * cancelled timer records nothing, and so does a held interval timer (the agent is stopped, or
 * paused with this timer's tick still queued): it stays due and fires once on start or resume,
 * with the periods it missed (`missed_periods`). An interval timer is re-armed (next_fire_at).
 * Firing before fire_at is refused.
 */
export function decideFireTimer(command: FireTimer, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const timer = requireRecord(state.timers, requireValidId(command.data.timer_id, 'timer_id'), 'timer');
  if (timer.status !== 'scheduled' || isTimerHeld(state, timer)) return [];
  requireDue(timer, now);
  const messageId = requireNewMessageId(state, command.data.message_id);
  const tick = runtimeMessageQueued(
    agentId,
    {
      message_id: messageId,
      kind: 'timer_tick',
      origin: 'timer',
      body: timer.resume_text ?? `timer ${timer.id} fired`,
      work_item_id: timer.work_item_id,
      correlation_id: timer.intent_id,
      causation_id: timer.id,
    },
    now,
  );
  return [timerFired(agentId, timer, messageId, now), ...boundIntentEvents(state, agentId, timer, now), tick];
}
