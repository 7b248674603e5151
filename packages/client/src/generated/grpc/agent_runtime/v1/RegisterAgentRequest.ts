// Original file: proto/agent_runtime.proto


export interface RegisterAgentRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  /**
   * Accepted for uniformity with every command; a new agent has no stream yet, so any
   * value is ABORTED (current_revision null).
   */
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
}

export interface RegisterAgentRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  /**
   * Accepted for uniformity with every command; a new agent has no stream yet, so any
   * value is ABORTED (current_revision null).
   */
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
}
