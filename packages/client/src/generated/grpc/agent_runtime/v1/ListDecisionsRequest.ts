// Original file: proto/agent_runtime.proto


export interface ListDecisionsRequest {
  'agent_id'?: (string);
  /**
   * Default 20, clamped to 1..100.
   */
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ListDecisionsRequest__Output {
  'agent_id': (string);
  /**
   * Default 20, clamped to 1..100.
   */
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
