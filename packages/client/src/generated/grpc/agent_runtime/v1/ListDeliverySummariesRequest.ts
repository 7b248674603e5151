// Original file: proto/agent_runtime.proto


export interface ListDeliverySummariesRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}

export interface ListDeliverySummariesRequest__Output {
  'agent_id': (string);
  'work_item_id'?: (string);
  'limit'?: (number);
  '_work_item_id'?: "work_item_id";
  '_limit'?: "limit";
}
