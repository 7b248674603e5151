import { changeRecord, putRecord } from '../agent/agent.records';
import type { AgentState } from '../agent/agent.state';
import type { WaitingIntentCreated, WaitingIntentEvent } from './waiting-intent.events';
import type { WaitingIntentRecord } from './waiting-intent.state';

function created({ data }: WaitingIntentCreated): WaitingIntentRecord {
  return {
    id: data.intent_id,
    scope: data.scope,
    work_item_id: data.work_item_id,
    wake: data.wake,
    reason: data.reason,
    source: data.source,
    resource: data.resource,
    condition: data.condition,
    fire_at: data.fire_at,
    delivery_mode: data.delivery_mode,
    status: 'active',
    trigger_count: 0,
    last_triggered_at: null,
    callback_token_hash: data.callback_token_hash,
    created_at: data.at,
    updated_at: data.at,
    timer_id: data.timer_id,
    last_trigger: null,
    event_ids: [],
    ended_at: null,
    end_reason: null,
  };
}

export function evolveWaitingIntent(state: AgentState, event: WaitingIntentEvent): AgentState {
  const { data } = event;
  switch (event.type) {
    case 'WaitingIntentCreated':
      return putRecord(state, 'waiting_intents', event.data.intent_id, created(event));
    case 'WaitingIntentTriggered':
      return changeRecord(state, 'waiting_intents', data.intent_id, (intent) => ({
        ...intent,
        trigger_count: event.data.trigger_count,
        last_triggered_at: event.data.triggered_at,
        last_trigger: { source: event.data.source, event_id: event.data.event_id, via: event.data.provenance.via },
        event_ids: event.data.event_id === null ? intent.event_ids : [...(intent.event_ids ?? []), event.data.event_id],
        updated_at: data.at,
      }));
    case 'WaitingIntentCancelled':
      return changeRecord(state, 'waiting_intents', data.intent_id, (intent) => ({
        ...intent,
        status: 'cancelled',
        event_ids: [],
        ended_at: data.at,
        end_reason: event.data.reason,
        updated_at: data.at,
      }));
    case 'WaitingIntentResolved':
      return changeRecord(state, 'waiting_intents', data.intent_id, (intent) => ({
        ...intent,
        status: 'resolved',
        event_ids: [],
        ended_at: data.at,
        end_reason: typeof event.data.timer_id === 'string' ? 'timer_fired' : 'task_result',
        updated_at: data.at,
      }));
  }
}
