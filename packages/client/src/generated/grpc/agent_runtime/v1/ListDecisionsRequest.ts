// Original file: proto/agent_runtime.proto


export interface ListDecisionsRequest {
  'agent_id'?: (string);
  /**
   * Default 20, clamped to 1..100.
   */
  'limit'?: (number);
  '_limit'?: "limit";
}

export interface ListDecisionsRequest__Output {
  'agent_id': (string);
  /**
   * Default 20, clamped to 1..100.
   */
  'limit'?: (number);
  '_limit'?: "limit";
}
