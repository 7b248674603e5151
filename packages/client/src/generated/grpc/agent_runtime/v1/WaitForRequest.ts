// Original file: proto/agent_runtime.proto


export interface WaitForRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Present: work-item scope (blocks the item); absent: agent scope.
   */
  'work_item_id'?: (string);
  /**
   * "operator_input" | "task_result" | "external" | "timer"
   */
  'wake'?: (string);
  'reason'?: (string);
  'resource'?: (string);
  'source'?: (string);
  'condition'?: (string);
  /**
   * RFC 3339; required for (and only for) wake "timer".
   */
  'fire_at'?: (string);
  /**
   * "wake_hint" (default) | "enqueue_message"
   */
  'delivery_mode'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_work_item_id'?: "work_item_id";
  '_resource'?: "resource";
  '_source'?: "source";
  '_condition'?: "condition";
  '_fire_at'?: "fire_at";
  '_delivery_mode'?: "delivery_mode";
}

export interface WaitForRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Present: work-item scope (blocks the item); absent: agent scope.
   */
  'work_item_id'?: (string);
  /**
   * "operator_input" | "task_result" | "external" | "timer"
   */
  'wake': (string);
  'reason': (string);
  'resource'?: (string);
  'source'?: (string);
  'condition'?: (string);
  /**
   * RFC 3339; required for (and only for) wake "timer".
   */
  'fire_at'?: (string);
  /**
   * "wake_hint" (default) | "enqueue_message"
   */
  'delivery_mode'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_work_item_id'?: "work_item_id";
  '_resource'?: "resource";
  '_source'?: "source";
  '_condition'?: "condition";
  '_fire_at'?: "fire_at";
  '_delivery_mode'?: "delivery_mode";
}
