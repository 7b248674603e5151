import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import type { MessageQueued } from '../queue/queue.events';
import type { CancelWaitingIntent, TriggerWaitingIntent, WaitFor } from '../waiting-intent/waiting-intent.commands';
import type { WakeHintCommand } from '../wake-hint/wake-hint.commands';
import type { WakeHintSubmitted } from '../wake-hint/wake-hint.events';
import type { WakeHintDisposition } from '../wake-hint/wake-hint.state';
import type { Warning } from '../shared/warnings';
import { found } from './found';
import { messageView, type MessageView } from '../views/message.view';
import { toWaitingIntentView, type WaitingIntentView } from '../views/waiting-intent.view';
import { workItemView, type WorkItemView } from '../views/work-item.view';

// Reply bodies without `revision` (the app adds it). The app adds `callback_token` to the WaitFor
// reply once (it generated the token; the domain only ever sees its hash).

export type WaitForReply = { waiting_intent: WaitingIntentView; work_item: WorkItemView | null; warnings: Warning[] };
/** `triggered` when recorded; otherwise the intent's status (the app answers 409 `conflict`, or 404 on the callback route). */
export type TriggerStatus = 'triggered' | 'cancelled' | 'resolved';
export type TriggerWaitingIntentReply = {
  waiting_intent: WaitingIntentView;
  status: TriggerStatus;
  /** The wake hint's disposition (wake_hint delivery), else null. */
  disposition: WakeHintDisposition | null;
  /** The callback_event or system_tick queued, else null. */
  message: MessageView | null;
  warnings: Warning[];
};
export type CancelWaitingIntentReply = { waiting_intent: WaitingIntentView; cancelled: boolean; warnings: Warning[] };
export type SubmitWakeHintReply = {
  disposition: WakeHintDisposition;
  message: MessageView | null;
  warnings: Warning[];
};

function intentView(state: AgentState, intentId: string): WaitingIntentView {
  return toWaitingIntentView(found(state.waiting_intents.get(intentId), 'waiting_intent', intentId));
}

/** The message this decision queued, as it stands after the decision. */
function queuedMessageOf(after: AgentState, newEvents: readonly AgentEvent[]): MessageView | null {
  const queued = newEvents.find((e): e is MessageQueued => e.type === 'MessageQueued');
  return queued ? messageView(after, queued.data.message_id) : null;
}

const hintOf = (newEvents: readonly AgentEvent[]): WakeHintSubmitted | undefined =>
  newEvents.find((e): e is WakeHintSubmitted => e.type === 'WakeHintSubmitted');

export function renderWaitForReply(
  command: WaitFor,
  _before: AgentState,
  after: AgentState,
  _newEvents: readonly AgentEvent[],
): WaitForReply {
  const { intent_id: intentId, work_item_id: workItemId } = command.data;
  return {
    waiting_intent: intentView(after, intentId),
    work_item: workItemId === undefined ? null : workItemView(after, workItemId),
    warnings: [],
  };
}

export function renderTriggerWaitingIntentReply(
  command: TriggerWaitingIntent,
  _before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): TriggerWaitingIntentReply {
  const intent = intentView(after, command.data.intent_id);
  const recorded = newEvents.some((e) => e.type === 'WaitingIntentTriggered');
  return {
    waiting_intent: intent,
    status: recorded || intent.status === 'active' ? 'triggered' : intent.status,
    disposition: hintOf(newEvents)?.data.disposition ?? null,
    message: queuedMessageOf(after, newEvents),
    warnings: [],
  };
}

export function renderCancelWaitingIntentReply(
  command: CancelWaitingIntent,
  _before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): CancelWaitingIntentReply {
  return {
    waiting_intent: intentView(after, command.data.intent_id),
    cancelled: newEvents.some((e) => e.type === 'WaitingIntentCancelled'),
    warnings: [],
  };
}

export function renderSubmitWakeHintReply(
  _command: WakeHintCommand,
  _before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): SubmitWakeHintReply {
  return {
    disposition: hintOf(newEvents)?.data.disposition ?? 'ignored',
    message: queuedMessageOf(after, newEvents),
    warnings: [],
  };
}
