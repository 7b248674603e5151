import type { JsonObject } from '../shared/json';

// NOTE: stored format. These literals appear in events, snapshots and read models.

export type MessageKind =
  | 'operator_prompt'
  | 'webhook_event'
  | 'channel_event'
  | 'callback_event'
  | 'timer_tick'
  | 'system_tick'
  | 'task_result'
  | 'internal_followup'
  | 'control';
export const MESSAGE_KINDS: readonly MessageKind[] = [
  'operator_prompt',
  'webhook_event',
  'channel_event',
  'callback_event',
  'timer_tick',
  'system_tick',
  'task_result',
  'internal_followup',
  'control',
];
/** Kinds only the runtime enqueues (as effects of its own decisions); callers may not. */
export const RUNTIME_OWNED_MESSAGE_KINDS: readonly MessageKind[] = [
  'system_tick',
  'timer_tick',
  'task_result',
  'callback_event',
];

/** Bands in order: interject > next > normal > background; FIFO within a band. */
export type MessagePriority = 'interject' | 'next' | 'normal' | 'background';
export const MESSAGE_PRIORITIES: readonly MessagePriority[] = ['interject', 'next', 'normal', 'background'];

export type MessageStatus = 'queued' | 'dequeued' | 'processed' | 'interjected' | 'aborted' | 'dropped';

/** Set by the runtime from the route and the caller, never by the caller. */
export type MessageAuthority =
  'operator_instruction' | 'runtime_instruction' | 'integration_signal' | 'external_evidence';
export const MESSAGE_AUTHORITIES: readonly MessageAuthority[] = [
  'operator_instruction',
  'runtime_instruction',
  'integration_signal',
  'external_evidence',
];

/** A message body: text or a JSON object. */
export type MessageBody = string | JsonObject;

export type MessageRecord = {
  id: string;
  kind: MessageKind;
  priority: MessagePriority;
  status: MessageStatus;
  work_item_id: string | null;
  authority: MessageAuthority;
  origin: string;
  /** null once the message is processed: the body stays in its MessageQueued event (at `seq`) and read model row. */
  body: MessageBody | null;
  task_id: string | null;
  correlation_id: string | null;
  causation_id: string | null;
  /** True for a tick with no content (a wake hint without body): liveness, not model input. */
  liveness_only: boolean;
  /** Arrival order: the stream revision of its MessageQueued (FIFO within a band). */
  seq: number;
  /** Turns serving this message that were interrupted (host died): at 3 it is quarantined. */
  interrupt_count: number;
  created_at: string;
  updated_at: string;
};
