// Original file: proto/agent_runtime.proto


export interface GetContextRequest {
  'agent_id'?: (string);
  /**
   * Token budget (default 4096).
   */
  'budget'?: (number);
  '_budget'?: "budget";
}

export interface GetContextRequest__Output {
  'agent_id': (string);
  /**
   * Token budget (default 4096).
   */
  'budget'?: (number);
  '_budget'?: "budget";
}
