// Original file: proto/agent_runtime.proto

import type { MessageBody as _agent_runtime_v1_MessageBody, MessageBody__Output as _agent_runtime_v1_MessageBody__Output } from '../../agent_runtime/v1/MessageBody';

export interface QueuedMessage {
  'id'?: (string);
  /**
   * "operator_prompt" | "webhook_event" | "channel_event" | "callback_event" | "timer_tick"
   * | "system_tick" | "task_result" | "internal_followup" | "control"
   */
  'kind'?: (string);
  /**
   * "interject" | "next" | "normal" | "background"
   */
  'priority'?: (string);
  /**
   * "queued" | "dequeued" | "processed" | "interjected" | "aborted" | "dropped"
   */
  'status'?: (string);
  'work_item_id'?: (string);
  /**
   * "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence"
   */
  'authority'?: (string);
  'origin'?: (string);
  'body'?: (_agent_runtime_v1_MessageBody | null);
  'task_id'?: (string);
  'correlation_id'?: (string);
  'causation_id'?: (string);
  'liveness_only'?: (boolean);
  /**
   * Arrival order (FIFO within a priority band).
   */
  'seq'?: (number);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_work_item_id'?: "work_item_id";
  '_task_id'?: "task_id";
  '_correlation_id'?: "correlation_id";
  '_causation_id'?: "causation_id";
}

export interface QueuedMessage__Output {
  'id': (string);
  /**
   * "operator_prompt" | "webhook_event" | "channel_event" | "callback_event" | "timer_tick"
   * | "system_tick" | "task_result" | "internal_followup" | "control"
   */
  'kind': (string);
  /**
   * "interject" | "next" | "normal" | "background"
   */
  'priority': (string);
  /**
   * "queued" | "dequeued" | "processed" | "interjected" | "aborted" | "dropped"
   */
  'status': (string);
  'work_item_id'?: (string);
  /**
   * "operator_instruction" | "runtime_instruction" | "integration_signal" | "external_evidence"
   */
  'authority': (string);
  'origin': (string);
  'body': (_agent_runtime_v1_MessageBody__Output | null);
  'task_id'?: (string);
  'correlation_id'?: (string);
  'causation_id'?: (string);
  'liveness_only': (boolean);
  /**
   * Arrival order (FIFO within a priority band).
   */
  'seq': (number);
  'created_at': (string);
  'updated_at': (string);
  '_work_item_id'?: "work_item_id";
  '_task_id'?: "task_id";
  '_correlation_id'?: "correlation_id";
  '_causation_id'?: "causation_id";
}
