// Original file: proto/agent_runtime.proto


export interface TodoItem {
  'text'?: (string);
  /**
   * "pending" | "in_progress" | "completed"
   */
  'state'?: (string);
}

export interface TodoItem__Output {
  'text': (string);
  /**
   * "pending" | "in_progress" | "completed"
   */
  'state': (string);
}
