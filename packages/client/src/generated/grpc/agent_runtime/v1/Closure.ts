// Original file: proto/agent_runtime.proto


/**
 * How an agent's work stands (docs/domain-contract.md §2, Closure): the first rule that holds.
 */
export interface Closure {
  /**
   * "completed" | "continuable" | "failed" | "waiting"
   */
  'closure'?: (string);
  /**
   * "runtime_error" | "waiting_operator" | "waiting_task" | "waiting_intent" | "waiting_timer"
   * | "turn_in_progress" | "last_turn_failed" | "runnable_work" | "last_turn_completed" | "nothing_waiting"
   */
  'reason'?: (string);
  'evidence'?: (string)[];
}

/**
 * How an agent's work stands (docs/domain-contract.md §2, Closure): the first rule that holds.
 */
export interface Closure__Output {
  /**
   * "completed" | "continuable" | "failed" | "waiting"
   */
  'closure': (string);
  /**
   * "runtime_error" | "waiting_operator" | "waiting_task" | "waiting_intent" | "waiting_timer"
   * | "turn_in_progress" | "last_turn_failed" | "runnable_work" | "last_turn_completed" | "nothing_waiting"
   */
  'reason': (string);
  'evidence': (string)[];
}
