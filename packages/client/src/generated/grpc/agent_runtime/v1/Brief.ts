// Original file: proto/agent_runtime.proto


export interface Brief {
  'id'?: (string);
  /**
   * "ack" | "result" | "failure"
   */
  'kind'?: (string);
  'text'?: (string);
  'work_item_id'?: (string);
  'created_at'?: (string);
  '_work_item_id'?: "work_item_id";
}

export interface Brief__Output {
  'id': (string);
  /**
   * "ack" | "result" | "failure"
   */
  'kind': (string);
  'text': (string);
  'work_item_id'?: (string);
  'created_at': (string);
  '_work_item_id'?: "work_item_id";
}
