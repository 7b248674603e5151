// Original file: proto/agent_runtime.proto


export interface CurrentItemState {
  'id'?: (string);
  'revision'?: (number);
  'readiness'?: (string);
  'scheduling_state'?: (string);
  'continue_active_key'?: (string);
  'continue_active_consumed'?: (boolean);
}

export interface CurrentItemState__Output {
  'id': (string);
  'revision': (number);
  'readiness': (string);
  'scheduling_state': (string);
  'continue_active_key': (string);
  'continue_active_consumed': (boolean);
}
