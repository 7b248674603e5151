// Original file: libs/contracts/proto/agent_runtime.proto


export interface ListPlanVersionsRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
}

export interface ListPlanVersionsRequest__Output {
  'agent_id': (string);
  'work_item_id': (string);
}
