// Original file: proto/agent_runtime.proto


export interface GetPlanRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
}

export interface GetPlanRequest__Output {
  'agent_id': (string);
  'work_item_id': (string);
}
