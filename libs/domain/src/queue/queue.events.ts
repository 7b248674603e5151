import { eventGuard } from '../shared/event-guard';
import type { MessageAuthority, MessageBody, MessageKind, MessagePriority } from './message.state';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type MessageQueued = {
  type: 'MessageQueued';
  data: {
    agent_id: string;
    message_id: string;
    kind: MessageKind;
    priority: MessagePriority;
    authority: MessageAuthority;
    origin: string;
    body: MessageBody;
    work_item_id: string | null;
    task_id: string | null;
    correlation_id: string | null;
    causation_id: string | null;
    /** A tick without content: liveness only, not a reason to re-enter the model by itself. */
    liveness_only: boolean;
    at: string;
  };
};

export type MessageDropReason = 'dropped_by_operator' | 'quarantined';

export type MessageDropped = {
  type: 'MessageDropped';
  data: { agent_id: string; message_id: string; reason: MessageDropReason; at: string };
};

// Decided by the scheduler and turn slices; this slice folds them. turn_id is null for a reduce-only message.
type MessageMoveData = { agent_id: string; message_id: string; turn_id: string | null; at: string };
export type MessageDequeued = { type: 'MessageDequeued'; data: MessageMoveData };
export type MessageProcessed = { type: 'MessageProcessed'; data: MessageMoveData };
export type MessageInterjected = { type: 'MessageInterjected'; data: MessageMoveData };
export type MessageAborted = { type: 'MessageAborted'; data: MessageMoveData };

/**
 * An interrupted turn's message goes back to `queued` (keeping its arrival order): it will be replayed.
 * `cause: 'paused'`: the turn was aborted because the agent was paused (not counted as an interruption).
 */
export type MessageRequeued = {
  type: 'MessageRequeued';
  data: { agent_id: string; message_id: string; turn_id: string; at: string; cause?: 'paused' };
};

export type QueueEvent =
  | MessageQueued
  | MessageDropped
  | MessageDequeued
  | MessageProcessed
  | MessageInterjected
  | MessageAborted
  | MessageRequeued;

export const isQueueEvent = eventGuard<QueueEvent>([
  'MessageQueued',
  'MessageDropped',
  'MessageDequeued',
  'MessageProcessed',
  'MessageInterjected',
  'MessageAborted',
  'MessageRequeued',
]);
