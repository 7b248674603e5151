// Original file: libs/contracts/proto/agent_runtime.proto


export interface SpawnAgentRequest {
  /**
   * The parent.
   */
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * "private_child" | "public_named"
   */
  'workspace_mode'?: (string);
  /**
   * Required for private_child; a public_named child's optional bootstrap message.
   */
  'initial_message'?: (string);
  /**
   * The child's id (default: derived from the parent and the command_id).
   */
  'child_agent_id'?: (string);
  'preset'?: (string);
  'template'?: (string);
  /**
   * The parent's delegating item (default: its focus).
   */
  'work_item_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_initial_message'?: "initial_message";
  '_child_agent_id'?: "child_agent_id";
  '_preset'?: "preset";
  '_template'?: "template";
  '_work_item_id'?: "work_item_id";
}

export interface SpawnAgentRequest__Output {
  /**
   * The parent.
   */
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * "private_child" | "public_named"
   */
  'workspace_mode': (string);
  /**
   * Required for private_child; a public_named child's optional bootstrap message.
   */
  'initial_message'?: (string);
  /**
   * The child's id (default: derived from the parent and the command_id).
   */
  'child_agent_id'?: (string);
  'preset'?: (string);
  'template'?: (string);
  /**
   * The parent's delegating item (default: its focus).
   */
  'work_item_id'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_initial_message'?: "initial_message";
  '_child_agent_id'?: "child_agent_id";
  '_preset'?: "preset";
  '_template'?: "template";
  '_work_item_id'?: "work_item_id";
}
