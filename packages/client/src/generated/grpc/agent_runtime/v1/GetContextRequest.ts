// Original file: proto/agent_runtime.proto


export interface GetContextRequest {
  'agent_id'?: (string);
  /**
   * Token budget (default 4096).
   */
  'budget'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_budget'?: "budget";
  '_min_position'?: "min_position";
}

export interface GetContextRequest__Output {
  'agent_id': (string);
  /**
   * Token budget (default 4096).
   */
  'budget'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_budget'?: "budget";
  '_min_position'?: "min_position";
}
