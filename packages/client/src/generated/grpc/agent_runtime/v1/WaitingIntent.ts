// Original file: proto/agent_runtime.proto

import type { TriggerProvenance as _agent_runtime_v1_TriggerProvenance, TriggerProvenance__Output as _agent_runtime_v1_TriggerProvenance__Output } from '../../agent_runtime/v1/TriggerProvenance';

/**
 * A waiting intent (on its work item, or listed). The capability token and its hash are never shown.
 */
export interface WaitingIntent {
  'id'?: (string);
  /**
   * "work_item" | "agent"
   */
  'scope'?: (string);
  'work_item_id'?: (string);
  /**
   * "operator_input" | "task_result" | "external" | "timer"
   */
  'wake'?: (string);
  'reason'?: (string);
  'source'?: (string);
  'resource'?: (string);
  'condition'?: (string);
  'fire_at'?: (string);
  /**
   * "wake_hint" | "enqueue_message"
   */
  'delivery_mode'?: (string);
  /**
   * "active" | "cancelled" | "resolved"
   */
  'status'?: (string);
  'trigger_count'?: (number);
  'last_triggered_at'?: (string);
  'triggered'?: (boolean);
  'created_at'?: (string);
  'updated_at'?: (string);
  /**
   * The timer a `wake: timer` intent created.
   */
  'timer_id'?: (string);
  /**
   * The newest trigger's provenance; absent before the first trigger.
   */
  'last_trigger'?: (_agent_runtime_v1_TriggerProvenance | null);
  'ended_at'?: (string);
  /**
   * "wait_for_replaced" | "blocker_cleared" | "work_item_completed" | "cancelled_by_caller" | "task_result"
   */
  'end_reason'?: (string);
  /**
   * Whether a callback token was issued (the token and its hash are never shown).
   */
  'has_callback_token'?: (boolean);
  '_work_item_id'?: "work_item_id";
  '_source'?: "source";
  '_resource'?: "resource";
  '_condition'?: "condition";
  '_fire_at'?: "fire_at";
  '_last_triggered_at'?: "last_triggered_at";
  '_timer_id'?: "timer_id";
  '_ended_at'?: "ended_at";
  '_end_reason'?: "end_reason";
}

/**
 * A waiting intent (on its work item, or listed). The capability token and its hash are never shown.
 */
export interface WaitingIntent__Output {
  'id': (string);
  /**
   * "work_item" | "agent"
   */
  'scope': (string);
  'work_item_id'?: (string);
  /**
   * "operator_input" | "task_result" | "external" | "timer"
   */
  'wake': (string);
  'reason': (string);
  'source'?: (string);
  'resource'?: (string);
  'condition'?: (string);
  'fire_at'?: (string);
  /**
   * "wake_hint" | "enqueue_message"
   */
  'delivery_mode': (string);
  /**
   * "active" | "cancelled" | "resolved"
   */
  'status': (string);
  'trigger_count': (number);
  'last_triggered_at'?: (string);
  'triggered': (boolean);
  'created_at': (string);
  'updated_at': (string);
  /**
   * The timer a `wake: timer` intent created.
   */
  'timer_id'?: (string);
  /**
   * The newest trigger's provenance; absent before the first trigger.
   */
  'last_trigger': (_agent_runtime_v1_TriggerProvenance__Output | null);
  'ended_at'?: (string);
  /**
   * "wait_for_replaced" | "blocker_cleared" | "work_item_completed" | "cancelled_by_caller" | "task_result"
   */
  'end_reason'?: (string);
  /**
   * Whether a callback token was issued (the token and its hash are never shown).
   */
  'has_callback_token': (boolean);
  '_work_item_id'?: "work_item_id";
  '_source'?: "source";
  '_resource'?: "resource";
  '_condition'?: "condition";
  '_fire_at'?: "fire_at";
  '_last_triggered_at'?: "last_triggered_at";
  '_timer_id'?: "timer_id";
  '_ended_at'?: "ended_at";
  '_end_reason'?: "end_reason";
}
