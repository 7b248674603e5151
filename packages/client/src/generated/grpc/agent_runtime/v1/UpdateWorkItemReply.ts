// Original file: proto/agent_runtime.proto

import type { WorkItemView as _agent_runtime_v1_WorkItemView, WorkItemView__Output as _agent_runtime_v1_WorkItemView__Output } from '../../agent_runtime/v1/WorkItemView';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface UpdateWorkItemReply {
  'work_item'?: (_agent_runtime_v1_WorkItemView | null);
  'focus_released'?: (boolean);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface UpdateWorkItemReply__Output {
  'work_item': (_agent_runtime_v1_WorkItemView__Output | null);
  'focus_released': (boolean);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
