// Original file: proto/agent_runtime.proto


export interface ScheduledTimerState {
  'id'?: (string);
  'fire_at'?: (string);
  'work_item_id'?: (string);
  'intent_id'?: (string);
  'due'?: (boolean);
  '_work_item_id'?: "work_item_id";
  '_intent_id'?: "intent_id";
}

export interface ScheduledTimerState__Output {
  'id': (string);
  'fire_at': (string);
  'work_item_id'?: (string);
  'intent_id'?: (string);
  'due': (boolean);
  '_work_item_id'?: "work_item_id";
  '_intent_id'?: "intent_id";
}
