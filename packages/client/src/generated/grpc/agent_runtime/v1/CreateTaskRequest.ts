// Original file: proto/agent_runtime.proto


export interface CreateTaskRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Absent: generated (stable for a repeated command_id).
   */
  'task_id'?: (string);
  'kind'?: (string);
  /**
   * "background" | "blocking"
   */
  'wait_policy'?: (string);
  'work_item_id'?: (string);
  'summary'?: (string);
  /**
   * The lease (1000..604800000 ms); default: TASK_EXPECTED_DURATIONS for the kind, else none.
   */
  'expected_duration_ms'?: (number);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_task_id'?: "task_id";
  '_work_item_id'?: "work_item_id";
  '_summary'?: "summary";
  '_expected_duration_ms'?: "expected_duration_ms";
}

export interface CreateTaskRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Absent: generated (stable for a repeated command_id).
   */
  'task_id'?: (string);
  'kind': (string);
  /**
   * "background" | "blocking"
   */
  'wait_policy': (string);
  'work_item_id'?: (string);
  'summary'?: (string);
  /**
   * The lease (1000..604800000 ms); default: TASK_EXPECTED_DURATIONS for the kind, else none.
   */
  'expected_duration_ms'?: (number);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_task_id'?: "task_id";
  '_work_item_id'?: "work_item_id";
  '_summary'?: "summary";
  '_expected_duration_ms'?: "expected_duration_ms";
}
