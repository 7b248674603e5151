// Original file: proto/agent_runtime.proto


export interface ListWaitingIntentsRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "active" | "cancelled" | "resolved"
   */
  'status'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_status'?: "status";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}

export interface ListWaitingIntentsRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "active" | "cancelled" | "resolved"
   */
  'status'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_status'?: "status";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}
