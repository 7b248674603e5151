// Original file: proto/agent_runtime.proto


export interface ListBriefsRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "ack" | "result" | "failure"
   */
  'kind'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_kind'?: "kind";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ListBriefsRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "ack" | "result" | "failure"
   */
  'kind'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_kind'?: "kind";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
