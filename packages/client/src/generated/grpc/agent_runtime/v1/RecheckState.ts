// Original file: proto/agent_runtime.proto


export interface RecheckState {
  'work_item_id'?: (string);
  'recheck_at'?: (string);
  'idempotency_key'?: (string);
  'consumed'?: (boolean);
}

export interface RecheckState__Output {
  'work_item_id': (string);
  'recheck_at': (string);
  'idempotency_key': (string);
  'consumed': (boolean);
}
