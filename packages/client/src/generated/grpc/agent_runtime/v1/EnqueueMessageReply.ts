// Original file: proto/agent_runtime.proto

import type { QueuedMessage as _agent_runtime_v1_QueuedMessage, QueuedMessage__Output as _agent_runtime_v1_QueuedMessage__Output } from '../../agent_runtime/v1/QueuedMessage';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface EnqueueMessageReply {
  'message'?: (_agent_runtime_v1_QueuedMessage | null);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface EnqueueMessageReply__Output {
  'message': (_agent_runtime_v1_QueuedMessage__Output | null);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
