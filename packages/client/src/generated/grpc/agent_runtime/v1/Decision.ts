// Original file: proto/agent_runtime.proto


/**
 * A scheduler decision (docs/domain-contract.md §5): Activate's decision, GetState's next_decision and
 * last_decision, the items of ListDecisions.
 */
export interface Decision {
  /**
   * "StartModelTurn" | "ReduceMessageOnly" | "EmitSystemTick" | "WaitForTask"
   * | "WaitForExternalChange" | "WaitForTimer" | "WaitForOperator" | "Sleep" | "StayIdle"
   * | "Stop" | "Noop"
   */
  'kind'?: (string);
  'reason'?: (string);
  'model_reentry'?: (boolean);
  'liveness_only'?: (boolean);
  'message_id'?: (string);
  'work_item_id'?: (string);
  'task_id'?: (string);
  'idempotency_key'?: (string);
  'evidence'?: (string)[];
  /**
   * When it was recorded (for next_decision: when it was computed).
   */
  'recorded_at'?: (string);
  /**
   * ListDecisions only: the stream revision of its SchedulerDecisionRecorded.
   */
  'revision'?: (string);
  '_message_id'?: "message_id";
  '_work_item_id'?: "work_item_id";
  '_task_id'?: "task_id";
  '_idempotency_key'?: "idempotency_key";
  '_recorded_at'?: "recorded_at";
  '_revision'?: "revision";
}

/**
 * A scheduler decision (docs/domain-contract.md §5): Activate's decision, GetState's next_decision and
 * last_decision, the items of ListDecisions.
 */
export interface Decision__Output {
  /**
   * "StartModelTurn" | "ReduceMessageOnly" | "EmitSystemTick" | "WaitForTask"
   * | "WaitForExternalChange" | "WaitForTimer" | "WaitForOperator" | "Sleep" | "StayIdle"
   * | "Stop" | "Noop"
   */
  'kind': (string);
  'reason': (string);
  'model_reentry': (boolean);
  'liveness_only': (boolean);
  'message_id'?: (string);
  'work_item_id'?: (string);
  'task_id'?: (string);
  'idempotency_key'?: (string);
  'evidence': (string)[];
  /**
   * When it was recorded (for next_decision: when it was computed).
   */
  'recorded_at'?: (string);
  /**
   * ListDecisions only: the stream revision of its SchedulerDecisionRecorded.
   */
  'revision'?: (string);
  '_message_id'?: "message_id";
  '_work_item_id'?: "work_item_id";
  '_task_id'?: "task_id";
  '_idempotency_key'?: "idempotency_key";
  '_recorded_at'?: "recorded_at";
  '_revision'?: "revision";
}
