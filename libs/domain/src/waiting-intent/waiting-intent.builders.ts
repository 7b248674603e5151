import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import { timerCancelled } from '../timer/timer.builders';
import { activeIntentsFor } from '../views/scheduling';
import { compareIntents } from '../views/waiting-intent.view';
import type { WaitingIntentCancelled, WaitingIntentTriggered } from './waiting-intent.events';
import type { TriggerVia, WaitingIntentCancelReason, WaitingIntentRecord } from './waiting-intent.state';

export function intentCancelled(
  agentId: string,
  intent: WaitingIntentRecord,
  reason: WaitingIntentCancelReason,
  at: string,
  note: string | null = null,
): WaitingIntentCancelled {
  return {
    type: 'WaitingIntentCancelled',
    data: { agent_id: agentId, intent_id: intent.id, work_item_id: intent.work_item_id, reason, note, at },
  };
}

/** The intent's cancellation and, for a timer wait, its still scheduled timer's (a replaced wait never fires). */
export function intentCancellation(
  state: AgentState,
  agentId: string,
  intent: WaitingIntentRecord,
  reason: WaitingIntentCancelReason,
  at: string,
  note: string | null = null,
): AgentEvent[] {
  const timer = intent.timer_id === null ? undefined : state.timers.get(intent.timer_id);
  const timers = timer?.status === 'scheduled' ? [timerCancelled(agentId, timer, 'waiting_intent_ended', at)] : [];
  return [intentCancelled(agentId, intent, reason, at, note), ...timers];
}

/** Cancels every active work-item-scoped intent of the item (agent-scoped intents are never touched). */
export function itemIntentCancellations(
  state: AgentState,
  workItemId: string,
  reason: WaitingIntentCancelReason,
  at: string,
): AgentEvent[] {
  const agentId = state.agent_id;
  if (agentId === null) return [];
  return activeIntentsFor(state, workItemId)
    .sort(compareIntents)
    .flatMap((intent) => intentCancellation(state, agentId, intent, reason, at));
}

export type TriggerInput = {
  source: string;
  event_id: string | null;
  via: TriggerVia;
  actor: string | null;
  has_payload: boolean;
};

export function intentTriggered(
  agentId: string,
  intent: WaitingIntentRecord,
  trigger: TriggerInput,
  at: string,
): WaitingIntentTriggered {
  return {
    type: 'WaitingIntentTriggered',
    data: {
      agent_id: agentId,
      intent_id: intent.id,
      work_item_id: intent.work_item_id,
      trigger_count: intent.trigger_count + 1,
      triggered_at: at,
      source: trigger.source,
      event_id: trigger.event_id,
      provenance: { via: trigger.via, actor: trigger.actor },
      has_payload: trigger.has_payload,
      at,
    },
  };
}
