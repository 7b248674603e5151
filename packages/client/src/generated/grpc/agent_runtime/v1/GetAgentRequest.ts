// Original file: proto/agent_runtime.proto


export interface GetAgentRequest {
  'agent_id'?: (string);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}

export interface GetAgentRequest__Output {
  'agent_id': (string);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}
