// Original file: proto/agent_runtime.proto


export interface Task {
  'id'?: (string);
  'kind'?: (string);
  /**
   * "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled" | "interrupted"
   */
  'status'?: (string);
  /**
   * "background" | "blocking"
   */
  'wait_policy'?: (string);
  'work_item_id'?: (string);
  'summary'?: (string);
  'detail'?: (string);
  'terminal'?: (boolean);
  'created_at'?: (string);
  'updated_at'?: (string);
  /**
   * The lease: absent when the task has none.
   */
  'expected_duration_ms'?: (number);
  'lease_expires_at'?: (string);
  'last_heartbeat_at'?: (string);
  /**
   * "lease_expired" when the runtime interrupted the task.
   */
  'interrupt_reason'?: (string);
  /**
   * In lists: active and past its expected end.
   */
  'overdue'?: (boolean);
  '_work_item_id'?: "work_item_id";
  '_summary'?: "summary";
  '_detail'?: "detail";
  '_expected_duration_ms'?: "expected_duration_ms";
  '_lease_expires_at'?: "lease_expires_at";
  '_last_heartbeat_at'?: "last_heartbeat_at";
  '_interrupt_reason'?: "interrupt_reason";
  '_overdue'?: "overdue";
}

export interface Task__Output {
  'id': (string);
  'kind': (string);
  /**
   * "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled" | "interrupted"
   */
  'status': (string);
  /**
   * "background" | "blocking"
   */
  'wait_policy': (string);
  'work_item_id'?: (string);
  'summary'?: (string);
  'detail'?: (string);
  'terminal': (boolean);
  'created_at': (string);
  'updated_at': (string);
  /**
   * The lease: absent when the task has none.
   */
  'expected_duration_ms'?: (number);
  'lease_expires_at'?: (string);
  'last_heartbeat_at'?: (string);
  /**
   * "lease_expired" when the runtime interrupted the task.
   */
  'interrupt_reason'?: (string);
  /**
   * In lists: active and past its expected end.
   */
  'overdue'?: (boolean);
  '_work_item_id'?: "work_item_id";
  '_summary'?: "summary";
  '_detail'?: "detail";
  '_expected_duration_ms'?: "expected_duration_ms";
  '_lease_expires_at'?: "lease_expires_at";
  '_last_heartbeat_at'?: "last_heartbeat_at";
  '_interrupt_reason'?: "interrupt_reason";
  '_overdue'?: "overdue";
}
