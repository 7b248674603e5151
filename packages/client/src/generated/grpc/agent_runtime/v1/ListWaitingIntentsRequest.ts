// Original file: proto/agent_runtime.proto


export interface ListWaitingIntentsRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "active" | "cancelled" | "resolved"
   */
  'status'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_status'?: "status";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ListWaitingIntentsRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "active" | "cancelled" | "resolved"
   */
  'status'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_status'?: "status";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
