// Original file: proto/agent_runtime.proto

import type { QueuedMessage as _agent_runtime_v1_QueuedMessage, QueuedMessage__Output as _agent_runtime_v1_QueuedMessage__Output } from '../../agent_runtime/v1/QueuedMessage';

export interface ListMessagesReply {
  'items'?: (_agent_runtime_v1_QueuedMessage)[];
  'total'?: (number);
}

export interface ListMessagesReply__Output {
  'items': (_agent_runtime_v1_QueuedMessage__Output)[];
  'total': (number);
}
