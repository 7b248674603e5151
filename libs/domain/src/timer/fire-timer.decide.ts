import type { AgentEvent } from '../agent/agent.events';
import { requireRecord, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { requireNewMessageId } from '../queue/message.validation';
import { runtimeMessageQueued } from '../queue/queue.messages';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { compareInstants } from '../shared/time';
import { requireValidId } from '../shared/validation';
import { intentTriggered } from '../waiting-intent/waiting-intent.builders';
import type { FireTimer } from './timer.commands';
import type { TimerFired } from './timer.events';
import type { TimerRecord } from './timer.state';
import { nextFireAt } from './timer.time';

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
      next_fire_at: timer.interval_ms === null ? null : nextFireAt(timer.fire_at, timer.interval_ms, now),
      message_id: messageId,
      at: now,
    },
  };
}

/** A timer wait's intent is triggered by its timer (it stays active, like any trigger). */
function boundIntentTriggered(state: AgentState, agentId: string, timer: TimerRecord, now: string): AgentEvent[] {
  const intent = timer.intent_id === null ? undefined : state.waiting_intents.get(timer.intent_id);
  if (intent?.status !== 'active') return [];
  return [
    intentTriggered(
      agentId,
      intent,
      { source: 'timer', event_id: timer.id, via: 'timer', actor: null, has_payload: false },
      now,
    ),
  ];
}

/**
 * FireTimer (the scheduler, when due; also overdue on recovery): [TimerFired, bound intent
 * triggered?, timer_tick queued]. A fired or cancelled timer records nothing; an interval timer
 * is re-armed (next_fire_at). Firing before fire_at is refused.
 */
export function decideFireTimer(command: FireTimer, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const timer = requireRecord(state.timers, requireValidId(command.data.timer_id, 'timer_id'), 'timer');
  if (timer.status !== 'scheduled') return [];
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
  return [timerFired(agentId, timer, messageId, now), ...boundIntentTriggered(state, agentId, timer, now), tick];
}
