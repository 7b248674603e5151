// Original file: proto/agent_runtime.proto


export interface PendingWakeHint {
  'source'?: (string);
  'reason'?: (string);
  'created_at'?: (string);
  'intent_id'?: (string);
  'liveness_only'?: (boolean);
  'idempotency_key'?: (string);
  '_intent_id'?: "intent_id";
}

export interface PendingWakeHint__Output {
  'source': (string);
  'reason': (string);
  'created_at': (string);
  'intent_id'?: (string);
  'liveness_only': (boolean);
  'idempotency_key': (string);
  '_intent_id'?: "intent_id";
}
