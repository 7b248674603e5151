// Original file: proto/agent_runtime.proto


export interface HeartbeatRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'turn_id'?: (string);
  /**
   * Default: the turn's current lease_ttl_ms.
   */
  'lease_ttl_ms'?: (number);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_lease_ttl_ms'?: "lease_ttl_ms";
}

export interface HeartbeatRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'turn_id': (string);
  /**
   * Default: the turn's current lease_ttl_ms.
   */
  'lease_ttl_ms'?: (number);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_lease_ttl_ms'?: "lease_ttl_ms";
}
