// Original file: proto/agent_runtime.proto

import type { MessageBody as _agent_runtime_v1_MessageBody, MessageBody__Output as _agent_runtime_v1_MessageBody__Output } from '../../agent_runtime/v1/MessageBody';

/**
 * No bearer token and no agent_id: the token names its agent and grants the trigger.
 */
export interface CallbackRequest {
  'callback_token'?: (string);
  /**
   * Deduplicates like event_id when event_id is absent.
   */
  'command_id'?: (string);
  'source'?: (string);
  'payload'?: (_agent_runtime_v1_MessageBody | null);
  /**
   * The sender's event id: a redelivery appends nothing.
   */
  'event_id'?: (string);
  '_command_id'?: "command_id";
  '_event_id'?: "event_id";
}

/**
 * No bearer token and no agent_id: the token names its agent and grants the trigger.
 */
export interface CallbackRequest__Output {
  'callback_token': (string);
  /**
   * Deduplicates like event_id when event_id is absent.
   */
  'command_id'?: (string);
  'source': (string);
  'payload': (_agent_runtime_v1_MessageBody__Output | null);
  /**
   * The sender's event id: a redelivery appends nothing.
   */
  'event_id'?: (string);
  '_command_id'?: "command_id";
  '_event_id'?: "event_id";
}
