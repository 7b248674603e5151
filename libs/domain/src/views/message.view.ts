import type { AgentState } from '../agent/agent.state';
import type { MessageBody, MessagePriority, MessageRecord } from '../queue/message.state';
import { jsonClone } from '../shared/json';

/**
 * docs/api.md message shape. The state keeps no body once a message is processed: `body` is
 * then the one the caller read back (the state before, the MessageQueued event, the row), null
 * only when it read none.
 */
export type MessageView = MessageRecord;

export function toMessageView(message: MessageRecord, body: MessageBody | null = message.body): MessageView {
  return { ...message, body: body === null ? null : jsonClone(body) };
}

/** interject > next > normal > background. */
export const PRIORITY_BAND_RANK: Record<MessagePriority, number> = { interject: 0, next: 1, normal: 2, background: 3 };

/** Band first, then arrival (`seq`, the stream revision of MessageQueued): FIFO within a band. */
export const compareQueuedMessages = (a: MessageRecord, b: MessageRecord): number =>
  PRIORITY_BAND_RANK[a.priority] - PRIORITY_BAND_RANK[b.priority] || a.seq - b.seq;

/** The queued messages in the order the scheduler takes them. */
export function queuedMessagesInOrder(state: AgentState): MessageRecord[] {
  return state.queue
    .map((id) => state.messages.get(id))
    .filter((message): message is MessageRecord => message?.status === 'queued')
    .sort(compareQueuedMessages);
}

/** The view of one message by id, or null. */
export function messageView(state: AgentState, messageId: string): MessageView | null {
  const message = state.messages.get(messageId);
  return message ? toMessageView(message) : null;
}
