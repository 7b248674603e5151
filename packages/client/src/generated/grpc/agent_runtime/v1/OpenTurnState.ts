// Original file: proto/agent_runtime.proto


export interface OpenTurnState {
  'turn_id'?: (string);
  'turn_index'?: (number);
  'message_id'?: (string);
  'work_item_id'?: (string);
  'lease_expires_at'?: (string);
  'lease_expired'?: (boolean);
  'open_round_id'?: (string);
  '_work_item_id'?: "work_item_id";
  '_open_round_id'?: "open_round_id";
}

export interface OpenTurnState__Output {
  'turn_id': (string);
  'turn_index': (number);
  'message_id': (string);
  'work_item_id'?: (string);
  'lease_expires_at': (string);
  'lease_expired': (boolean);
  'open_round_id'?: (string);
  '_work_item_id'?: "work_item_id";
  '_open_round_id'?: "open_round_id";
}
