// Original file: proto/agent_runtime.proto


export interface TurnTerminalRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'turn_id'?: (string);
  /**
   * "completed" | "aborted" | "failed" | "interrupted" | "baseline_over_budget"
   */
  'terminal_kind'?: (string);
  'last_assistant_message'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_last_assistant_message'?: "last_assistant_message";
}

export interface TurnTerminalRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'turn_id': (string);
  /**
   * "completed" | "aborted" | "failed" | "interrupted" | "baseline_over_budget"
   */
  'terminal_kind': (string);
  'last_assistant_message'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_last_assistant_message'?: "last_assistant_message";
}
