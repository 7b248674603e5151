// Original file: proto/agent_runtime.proto


/**
 * An activation decides on the agent's current state: no expected_revision (HTTP refuses it too).
 */
export interface ActivateRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'correlation_id'?: (string);
  /**
   * 1000..3600000, default 60000: the lease of a started turn.
   */
  'lease_ttl_ms'?: (number);
  /**
   * Token budget of the returned context (default 4096).
   */
  'context_budget'?: (number);
  '_command_id'?: "command_id";
  '_correlation_id'?: "correlation_id";
  '_lease_ttl_ms'?: "lease_ttl_ms";
  '_context_budget'?: "context_budget";
}

/**
 * An activation decides on the agent's current state: no expected_revision (HTTP refuses it too).
 */
export interface ActivateRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'correlation_id'?: (string);
  /**
   * 1000..3600000, default 60000: the lease of a started turn.
   */
  'lease_ttl_ms'?: (number);
  /**
   * Token budget of the returned context (default 4096).
   */
  'context_budget'?: (number);
  '_command_id'?: "command_id";
  '_correlation_id'?: "correlation_id";
  '_lease_ttl_ms'?: "lease_ttl_ms";
  '_context_budget'?: "context_budget";
}
