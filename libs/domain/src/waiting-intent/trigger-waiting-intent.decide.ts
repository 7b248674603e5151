import type { AgentEvent } from '../agent/agent.events';
import { requireRecord, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import type { MessageBody } from '../queue/message.state';
import { optionalMessageBody, requireLabel, requireNewMessageId } from '../queue/message.validation';
import type { MessageQueued } from '../queue/queue.events';
import { messageQueued } from '../queue/queue.messages';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { optionalTrimmedText, optionalValidId, requireOneOf } from '../shared/validation';
import { wakeHintEvents } from '../wake-hint/wake-hint.decide';
import { intentCancellation, intentTriggered } from './waiting-intent.builders';
import type { CancelWaitingIntent, TriggerWaitingIntent } from './waiting-intent.commands';
import { TRIGGER_VIAS_FROM_CALLERS, type WaitingIntentRecord } from './waiting-intent.state';
import { WAIT_REASON_MAX_LENGTH } from './waiting-intent.validation';

type TriggerInput = {
  intent_id: string;
  source: string;
  payload: MessageBody | null;
  event_id: string | null;
  via: 'api' | 'callback';
  message_id: string | null;
};

function validateTrigger(data: TriggerWaitingIntent['data']): TriggerInput {
  return {
    intent_id: assertValidId(data.intent_id, 'intent_id'),
    source: requireLabel(data.source, 'source'),
    payload: optionalMessageBody(data.payload, 'payload'),
    event_id: data.event_id === undefined || data.event_id === null ? null : requireLabel(data.event_id, 'event_id'),
    via: requireOneOf(data.via, 'via', TRIGGER_VIAS_FROM_CALLERS) as 'api' | 'callback',
    message_id: optionalValidId(data.message_id, 'message_id'),
  };
}

/** enqueue_message delivery: a contentful callback_event bound to the intent's item (the payload, or a text naming the intent). */
function callbackEvent(
  state: AgentState,
  agentId: string,
  intent: WaitingIntentRecord,
  input: TriggerInput,
  at: string,
): MessageQueued {
  const text = `External event from ${input.source} for waiting intent ${intent.id}: ${intent.reason}`;
  return messageQueued(
    agentId,
    {
      message_id: requireNewMessageId(state, input.message_id),
      kind: 'callback_event',
      priority: 'normal',
      authority: 'integration_signal',
      origin: input.source,
      body: input.payload ?? text,
      work_item_id: intent.work_item_id,
      correlation_id: input.event_id,
      causation_id: intent.id,
    },
    at,
  );
}

function delivery(
  state: AgentState,
  agentId: string,
  intent: WaitingIntentRecord,
  input: TriggerInput,
  at: string,
): AgentEvent[] {
  if (intent.delivery_mode === 'enqueue_message') return [callbackEvent(state, agentId, intent, input, at)];
  return wakeHintEvents(
    state,
    agentId,
    {
      source: input.source,
      reason: `waiting intent ${intent.id} triggered`,
      body: input.payload,
      intent_id: intent.id,
      work_item_id: intent.work_item_id,
      message_id: input.message_id,
    },
    at,
  );
}

/**
 * Only an `external` wait is triggered from outside: an `operator_input` wait ends with the operator's
 * message, a `task_result` wait with its task's terminal status, a `timer` wait with its timer.
 */
function requireExternalWake(intent: WaitingIntentRecord): void {
  if (intent.wake === 'external') return;
  throw new DomainError(
    'wake_mismatch',
    { rule: 'wake_mismatch', intent_id: intent.id, wake: intent.wake },
    `waiting intent ${intent.id} waits for ${intent.wake}: only an external wait is triggered from outside`,
  );
}

/**
 * TriggerWaitingIntent on an active intent: [WaitingIntentTriggered, delivery]. It never clears
 * blocked_by, never completes, never moves the focus; the intent stays active. A cancelled or
 * resolved intent records nothing (the reply says which), nor does an `event_id` the intent
 * already counted: a redelivered webhook counts once for the whole life of the intent. An active
 * intent that does not wait for `external` is refused (`wake_mismatch`).
 */
export function decideTriggerWaitingIntent(command: TriggerWaitingIntent, state: AgentState): AgentEvent[] {
  const { now, actor } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const input = validateTrigger(command.data);
  const intent = requireRecord(state.waiting_intents, input.intent_id, 'waiting_intent');
  if (intent.status !== 'active') return [];
  requireExternalWake(intent);
  if (input.event_id !== null && intent.event_ids.includes(input.event_id)) return [];
  const trigger = {
    source: input.source,
    event_id: input.event_id,
    via: input.via,
    actor: actor ?? null,
    has_payload: input.payload !== null,
  };
  return [intentTriggered(agentId, intent, trigger, now), ...delivery(state, agentId, intent, input, now)];
}

/** CancelWaitingIntent: idempotent; an intent that is no longer active records nothing. The blocker stays. */
export function decideCancelWaitingIntent(command: CancelWaitingIntent, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const intentId = assertValidId(command.data.intent_id, 'intent_id');
  const note = optionalTrimmedText(command.data.note, 'note', {
    min: 1,
    max: WAIT_REASON_MAX_LENGTH,
    shape: 'lines',
  });
  const intent = requireRecord(state.waiting_intents, intentId, 'waiting_intent');
  if (intent.status !== 'active') return [];
  return intentCancellation(state, agentId, intent, 'cancelled_by_caller', now, note);
}
