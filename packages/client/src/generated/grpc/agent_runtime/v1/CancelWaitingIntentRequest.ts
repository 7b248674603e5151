// Original file: proto/agent_runtime.proto


export interface CancelWaitingIntentRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'intent_id'?: (string);
  'note'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_note'?: "note";
}

export interface CancelWaitingIntentRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'intent_id': (string);
  'note'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_note'?: "note";
}
