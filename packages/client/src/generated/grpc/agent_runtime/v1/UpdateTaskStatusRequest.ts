// Original file: proto/agent_runtime.proto


export interface UpdateTaskStatusRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'task_id'?: (string);
  'status'?: (string);
  'detail'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_detail'?: "detail";
}

export interface UpdateTaskStatusRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'task_id': (string);
  'status': (string);
  'detail'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_detail'?: "detail";
}
