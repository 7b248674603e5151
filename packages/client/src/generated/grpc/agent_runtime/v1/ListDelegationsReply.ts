// Original file: proto/agent_runtime.proto

import type { Delegation as _agent_runtime_v1_Delegation, Delegation__Output as _agent_runtime_v1_Delegation__Output } from '../../agent_runtime/v1/Delegation';

export interface ListDelegationsReply {
  'items'?: (_agent_runtime_v1_Delegation)[];
  'total'?: (number);
}

export interface ListDelegationsReply__Output {
  'items': (_agent_runtime_v1_Delegation__Output)[];
  'total': (number);
}
