// Original file: proto/agent_runtime.proto


/**
 * One section of the context projection (docs/domain-contract.md §6).
 */
export interface ContextSection {
  /**
   * "turn_work_item" | "current_work_item" | "queued_messages" | "triggered_candidates"
   * | "queued_runnable" | "waiting_for_operator" | "blocked" | "recently_completed"
   */
  'name'?: (string);
  'text'?: (string);
  'estimated_tokens'?: (number);
  /**
   * HTTP's `content` (the section's structured data) as one JSON value; absent when null
   * (the current_work_item section without a focus).
   */
  'content_json'?: (string);
  '_content_json'?: "content_json";
}

/**
 * One section of the context projection (docs/domain-contract.md §6).
 */
export interface ContextSection__Output {
  /**
   * "turn_work_item" | "current_work_item" | "queued_messages" | "triggered_candidates"
   * | "queued_runnable" | "waiting_for_operator" | "blocked" | "recently_completed"
   */
  'name': (string);
  'text': (string);
  'estimated_tokens': (number);
  /**
   * HTTP's `content` (the section's structured data) as one JSON value; absent when null
   * (the current_work_item section without a focus).
   */
  'content_json'?: (string);
  '_content_json'?: "content_json";
}
