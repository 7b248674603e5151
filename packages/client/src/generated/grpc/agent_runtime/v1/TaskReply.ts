// Original file: proto/agent_runtime.proto

import type { Task as _agent_runtime_v1_Task, Task__Output as _agent_runtime_v1_Task__Output } from '../../agent_runtime/v1/Task';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface TaskReply {
  'task'?: (_agent_runtime_v1_Task | null);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface TaskReply__Output {
  'task': (_agent_runtime_v1_Task__Output | null);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
