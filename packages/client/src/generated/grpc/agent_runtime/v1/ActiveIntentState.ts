// Original file: proto/agent_runtime.proto


export interface ActiveIntentState {
  'id'?: (string);
  'scope'?: (string);
  'work_item_id'?: (string);
  'wake'?: (string);
  'resource'?: (string);
  'trigger_count'?: (number);
  'last_triggered_at'?: (string);
  '_work_item_id'?: "work_item_id";
  '_resource'?: "resource";
  '_last_triggered_at'?: "last_triggered_at";
}

export interface ActiveIntentState__Output {
  'id': (string);
  'scope': (string);
  'work_item_id'?: (string);
  'wake': (string);
  'resource'?: (string);
  'trigger_count': (number);
  'last_triggered_at'?: (string);
  '_work_item_id'?: "work_item_id";
  '_resource'?: "resource";
  '_last_triggered_at'?: "last_triggered_at";
}
