// Original file: proto/agent_runtime.proto


export interface ListTasksRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "active" | "terminal"
   */
  'filter'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_filter'?: "filter";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}

export interface ListTasksRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "active" | "terminal"
   */
  'filter'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_filter'?: "filter";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}
