// Original file: proto/agent_runtime.proto


export interface ListTimersRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "scheduled" | "fired" | "cancelled"
   */
  'status'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_status'?: "status";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ListTimersRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "scheduled" | "fired" | "cancelled"
   */
  'status'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_status'?: "status";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
