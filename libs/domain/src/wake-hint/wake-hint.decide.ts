import type { AgentEvent } from '../agent/agent.events';
import { requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import type { MessageBody } from '../queue/message.state';
import { optionalMessageBody, requireLabel, requireNewMessageId } from '../queue/message.validation';
import { runtimeMessageQueued } from '../queue/queue.messages';
import { assertCommandMeta } from '../shared/command-meta';
import { requireTrimmedText } from '../shared/text';
import { optionalValidId } from '../shared/validation';
import type { SubmitWakeHint } from './wake-hint.commands';
import type { WakeHintSubmitted } from './wake-hint.events';
import type { WakeHintDisposition } from './wake-hint.state';

export const WAKE_HINT_REASON_MAX_LENGTH = 2000;

/** A hint to act on: from a caller, or the delivery of a triggered waiting intent. */
export type WakeHint = {
  source: string;
  reason: string;
  body: MessageBody | null;
  intent_id: string | null;
  work_item_id: string | null;
  /** Needed (and checked) only when the hint is emitted at once. */
  message_id: unknown;
};

/** stopped -> ignored; a turn open or a message queued -> coalesced (kept pending); else triggered. */
export function wakeHintDisposition(state: AgentState): WakeHintDisposition {
  if (state.posture === 'stopped') return 'ignored';
  if (state.open_turn_id !== null || state.queue.length > 0) return 'coalesced';
  return 'triggered';
}

/** The body of the system_tick: the hint's body, or a liveness-only line naming its source and reason. */
export function wakeHintTickBody(hint: Pick<WakeHint, 'source' | 'reason' | 'body'>): MessageBody {
  return hint.body ?? `Wake hint from ${hint.source}: ${hint.reason}`;
}

/** WakeHintSubmitted with its disposition and, when triggered, the system_tick it emits (same decision). */
export function wakeHintEvents(state: AgentState, agentId: string, hint: WakeHint, at: string): AgentEvent[] {
  const disposition = wakeHintDisposition(state);
  const messageId = disposition === 'triggered' ? requireNewMessageId(state, hint.message_id) : null;
  const submitted: WakeHintSubmitted = {
    type: 'WakeHintSubmitted',
    data: {
      agent_id: agentId,
      source: hint.source,
      reason: hint.reason,
      body: hint.body,
      intent_id: hint.intent_id,
      disposition,
      message_id: messageId,
      at,
    },
  };
  if (messageId === null) return [submitted];
  const tick = runtimeMessageQueued(
    agentId,
    {
      message_id: messageId,
      kind: 'system_tick',
      origin: 'wake_hint',
      body: wakeHintTickBody(hint),
      liveness_only: hint.body === null,
      work_item_id: hint.work_item_id,
      causation_id: hint.intent_id,
    },
    at,
  );
  return [submitted, tick];
}

/** SubmitWakeHint {source, reason, body?}: ignored, coalesced or emitted at once as a system_tick. */
export function decideSubmitWakeHint(command: SubmitWakeHint, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const { data } = command;
  const hint: WakeHint = {
    source: requireLabel(data.source, 'source'),
    reason: requireTrimmedText(data.reason, 'reason', { min: 1, max: WAKE_HINT_REASON_MAX_LENGTH, shape: 'lines' }),
    body: optionalMessageBody(data.body),
    intent_id: null,
    work_item_id: null,
    message_id: optionalValidId(data.message_id, 'message_id'),
  };
  return wakeHintEvents(state, agentId, hint, now);
}
