// Original file: proto/agent_runtime.proto


export interface TaskHeartbeatRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'task_id'?: (string);
  /**
   * Default: the task's current expected_duration_ms.
   */
  'expected_duration_ms'?: (number);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_expected_duration_ms'?: "expected_duration_ms";
}

export interface TaskHeartbeatRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'task_id': (string);
  /**
   * Default: the task's current expected_duration_ms.
   */
  'expected_duration_ms'?: (number);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_expected_duration_ms'?: "expected_duration_ms";
}
