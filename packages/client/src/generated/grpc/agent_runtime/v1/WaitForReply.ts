// Original file: proto/agent_runtime.proto

import type { WaitingIntent as _agent_runtime_v1_WaitingIntent, WaitingIntent__Output as _agent_runtime_v1_WaitingIntent__Output } from '../../agent_runtime/v1/WaitingIntent';
import type { WorkItemView as _agent_runtime_v1_WorkItemView, WorkItemView__Output as _agent_runtime_v1_WorkItemView__Output } from '../../agent_runtime/v1/WorkItemView';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface WaitForReply {
  'waiting_intent'?: (_agent_runtime_v1_WaitingIntent | null);
  /**
   * Absent at agent scope.
   */
  'work_item'?: (_agent_runtime_v1_WorkItemView | null);
  /**
   * External waits, first reply only: a repeated command_id answers without it.
   */
  'callback_token'?: (string);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_callback_token'?: "callback_token";
  '_position'?: "position";
}

export interface WaitForReply__Output {
  'waiting_intent': (_agent_runtime_v1_WaitingIntent__Output | null);
  /**
   * Absent at agent scope.
   */
  'work_item': (_agent_runtime_v1_WorkItemView__Output | null);
  /**
   * External waits, first reply only: a repeated command_id answers without it.
   */
  'callback_token'?: (string);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_callback_token'?: "callback_token";
  '_position'?: "position";
}
