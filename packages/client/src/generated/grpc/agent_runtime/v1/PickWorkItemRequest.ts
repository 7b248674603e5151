// Original file: proto/agent_runtime.proto


export interface PickWorkItemRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'work_item_id'?: (string);
  /**
   * Expected (a warning otherwise) when leaving a runnable focus.
   */
  'reason'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_reason'?: "reason";
}

export interface PickWorkItemRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'work_item_id': (string);
  /**
   * Expected (a warning otherwise) when leaving a runnable focus.
   */
  'reason'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_reason'?: "reason";
}
