// Original file: proto/agent_runtime.proto


export interface CancelTimerRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'timer_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
}

export interface CancelTimerRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'timer_id': (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
}
