// Original file: proto/agent_runtime.proto


export interface GetWorkItemRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
}

export interface GetWorkItemRequest__Output {
  'agent_id': (string);
  'work_item_id': (string);
}
