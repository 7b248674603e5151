// Original file: proto/agent_runtime.proto


export interface ListDelegationsRequest {
  'agent_id'?: (string);
  /**
   * Accepted and always met (the list reads the agents' streams).
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}

export interface ListDelegationsRequest__Output {
  'agent_id': (string);
  /**
   * Accepted and always met (the list reads the agents' streams).
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}
