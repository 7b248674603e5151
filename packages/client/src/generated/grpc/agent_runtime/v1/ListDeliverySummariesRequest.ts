// Original file: proto/agent_runtime.proto


export interface ListDeliverySummariesRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ListDeliverySummariesRequest__Output {
  'agent_id': (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
