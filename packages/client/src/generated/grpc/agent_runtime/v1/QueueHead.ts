// Original file: proto/agent_runtime.proto


export interface QueueHead {
  'message_id'?: (string);
  'kind'?: (string);
  'priority'?: (string);
  'model_reentry'?: (boolean);
  'reason'?: (string);
}

export interface QueueHead__Output {
  'message_id': (string);
  'kind': (string);
  'priority': (string);
  'model_reentry': (boolean);
  'reason': (string);
}
