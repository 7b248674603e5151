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
  /**
   * Long poll, 0..60000 ms (default 0: one step). When the decision opens no turn, wait for an event of
   * the agent or its next deadline and step again; the reply is the first step that opens a turn, else
   * the last decision (no turn). Cancelling the call ends the wait (docs/decisions/0028).
   */
  'wait_ms'?: (number);
  '_command_id'?: "command_id";
  '_correlation_id'?: "correlation_id";
  '_lease_ttl_ms'?: "lease_ttl_ms";
  '_context_budget'?: "context_budget";
  '_wait_ms'?: "wait_ms";
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
  /**
   * Long poll, 0..60000 ms (default 0: one step). When the decision opens no turn, wait for an event of
   * the agent or its next deadline and step again; the reply is the first step that opens a turn, else
   * the last decision (no turn). Cancelling the call ends the wait (docs/decisions/0028).
   */
  'wait_ms'?: (number);
  '_command_id'?: "command_id";
  '_correlation_id'?: "correlation_id";
  '_lease_ttl_ms'?: "lease_ttl_ms";
  '_context_budget'?: "context_budget";
  '_wait_ms'?: "wait_ms";
}
