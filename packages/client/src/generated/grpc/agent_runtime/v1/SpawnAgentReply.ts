// Original file: proto/agent_runtime.proto

import type { Delegation as _agent_runtime_v1_Delegation, Delegation__Output as _agent_runtime_v1_Delegation__Output } from '../../agent_runtime/v1/Delegation';
import type { Task as _agent_runtime_v1_Task, Task__Output as _agent_runtime_v1_Task__Output } from '../../agent_runtime/v1/Task';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface SpawnAgentReply {
  'workspace_mode'?: (string);
  'child_agent_id'?: (string);
  /**
   * private_child only.
   */
  'delegation'?: (_agent_runtime_v1_Delegation | null);
  'task'?: (_agent_runtime_v1_Task | null);
  'child_message_id'?: (string);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  /**
   * The parent's stream revision.
   */
  'revision'?: (string);
  /**
   * The store's global position of the spawn's last event.
   */
  'position'?: (string);
  '_delegation'?: "delegation";
  '_task'?: "task";
  '_child_message_id'?: "child_message_id";
  '_position'?: "position";
}

export interface SpawnAgentReply__Output {
  'workspace_mode': (string);
  'child_agent_id': (string);
  /**
   * private_child only.
   */
  'delegation'?: (_agent_runtime_v1_Delegation__Output | null);
  'task'?: (_agent_runtime_v1_Task__Output | null);
  'child_message_id'?: (string);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  /**
   * The parent's stream revision.
   */
  'revision': (string);
  /**
   * The store's global position of the spawn's last event.
   */
  'position'?: (string);
  '_delegation'?: "delegation";
  '_task'?: "task";
  '_child_message_id'?: "child_message_id";
  '_position'?: "position";
}
