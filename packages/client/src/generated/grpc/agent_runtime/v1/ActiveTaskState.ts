// Original file: proto/agent_runtime.proto


export interface ActiveTaskState {
  'id'?: (string);
  'kind'?: (string);
  'status'?: (string);
  'wait_policy'?: (string);
  'work_item_id'?: (string);
  '_work_item_id'?: "work_item_id";
}

export interface ActiveTaskState__Output {
  'id': (string);
  'kind': (string);
  'status': (string);
  'wait_policy': (string);
  'work_item_id'?: (string);
  '_work_item_id'?: "work_item_id";
}
