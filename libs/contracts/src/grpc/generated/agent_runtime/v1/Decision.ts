// Original file: libs/contracts/proto/agent_runtime.proto

import type { Closure as _agent_runtime_v1_Closure, Closure__Output as _agent_runtime_v1_Closure__Output } from '../../agent_runtime/v1/Closure';

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
  /**
   * The agent's closure on the state the decision was decided on (absent on decisions projected
   * before closure existed).
   */
  'closure'?: (_agent_runtime_v1_Closure | null);
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
  /**
   * The agent's closure on the state the decision was decided on (absent on decisions projected
   * before closure existed).
   */
  'closure': (_agent_runtime_v1_Closure__Output | null);
  '_message_id'?: "message_id";
  '_work_item_id'?: "work_item_id";
  '_task_id'?: "task_id";
  '_idempotency_key'?: "idempotency_key";
  '_recorded_at'?: "recorded_at";
  '_revision'?: "revision";
}
