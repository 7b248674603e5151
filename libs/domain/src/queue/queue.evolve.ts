import { changeRecord, putRecord } from '../agent/agent.records';
import type { AgentState } from '../agent/agent.state';
import type { MessageRecord, MessageStatus } from './message.state';
import type { MessageQueued, QueueEvent } from './queue.events';

/** A queued message joins the queue; it also wakes an asleep agent (any new input does). */
function queued(state: AgentState, { data }: MessageQueued): AgentState {
  const record: MessageRecord = {
    id: data.message_id,
    kind: data.kind,
    priority: data.priority,
    status: 'queued',
    work_item_id: data.work_item_id,
    authority: data.authority,
    origin: data.origin,
    body: data.body,
    task_id: data.task_id,
    correlation_id: data.correlation_id,
    causation_id: data.causation_id,
    liveness_only: data.liveness_only,
    // Arrival order = the stream revision of this event (version counts the events folded before it).
    seq: state.version,
    interrupt_count: 0,
    created_at: data.at,
    updated_at: data.at,
  };
  const next = putRecord(state, 'messages', data.message_id, record);
  return {
    ...next,
    queue: [...state.queue.filter((id) => id !== data.message_id), data.message_id],
    posture: state.posture === 'asleep' ? 'awake_idle' : state.posture,
  };
}

/** The message leaves the queued status (and the queue). */
function moved(state: AgentState, messageId: string, status: MessageStatus, at: string): AgentState {
  const next = changeRecord(state, 'messages', messageId, (message) => ({ ...message, status, updated_at: at }));
  return next.queue.includes(messageId) ? { ...next, queue: next.queue.filter((id) => id !== messageId) } : next;
}

/** Back to queued, at its old place (same seq); like any new input it wakes an asleep agent. */
function requeued(state: AgentState, messageId: string, at: string): AgentState {
  const message = state.messages.get(messageId);
  if (message === undefined) return state;
  const next = putRecord(state, 'messages', messageId, { ...message, status: 'queued', updated_at: at });
  return {
    ...next,
    queue: [...state.queue.filter((id) => id !== messageId), messageId],
    posture: state.posture === 'asleep' ? 'awake_idle' : state.posture,
  };
}

/** A processed message's body leaves the state (its MessageQueued and read model row keep it). */
function withoutBody(state: AgentState, messageId: string): AgentState {
  return changeRecord(state, 'messages', messageId, (message) => ({ ...message, body: null }));
}

export function evolveQueue(state: AgentState, event: QueueEvent): AgentState {
  switch (event.type) {
    case 'MessageQueued':
      return queued(state, event);
    case 'MessageDropped':
      return moved(state, event.data.message_id, 'dropped', event.data.at);
    case 'MessageDequeued':
      return moved(state, event.data.message_id, 'dequeued', event.data.at);
    case 'MessageProcessed':
      return withoutBody(moved(state, event.data.message_id, 'processed', event.data.at), event.data.message_id);
    case 'MessageInterjected':
      return moved(state, event.data.message_id, 'interjected', event.data.at);
    case 'MessageAborted':
      return moved(state, event.data.message_id, 'aborted', event.data.at);
    case 'MessageRequeued':
      return requeued(state, event.data.message_id, event.data.at);
  }
}
