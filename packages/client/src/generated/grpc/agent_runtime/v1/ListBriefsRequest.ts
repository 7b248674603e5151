// Original file: proto/agent_runtime.proto


export interface ListBriefsRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "ack" | "result" | "failure"
   */
  'kind'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_kind'?: "kind";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}

export interface ListBriefsRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "ack" | "result" | "failure"
   */
  'kind'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_kind'?: "kind";
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}
