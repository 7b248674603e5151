// Original file: proto/agent_runtime.proto


export interface TurnTerminalRecord {
  /**
   * "completed" | "aborted" | "failed" | "interrupted" | "baseline_over_budget"
   */
  'terminal_kind'?: (string);
  'last_assistant_message'?: (string);
  'at'?: (string);
  '_last_assistant_message'?: "last_assistant_message";
}

export interface TurnTerminalRecord__Output {
  /**
   * "completed" | "aborted" | "failed" | "interrupted" | "baseline_over_budget"
   */
  'terminal_kind': (string);
  'last_assistant_message'?: (string);
  'at': (string);
  '_last_assistant_message'?: "last_assistant_message";
}
