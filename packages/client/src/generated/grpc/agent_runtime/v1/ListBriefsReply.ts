// Original file: proto/agent_runtime.proto

import type { Brief as _agent_runtime_v1_Brief, Brief__Output as _agent_runtime_v1_Brief__Output } from '../../agent_runtime/v1/Brief';

export interface ListBriefsReply {
  /**
   * Newest first.
   */
  'items'?: (_agent_runtime_v1_Brief)[];
  'total'?: (number);
}

export interface ListBriefsReply__Output {
  /**
   * Newest first.
   */
  'items': (_agent_runtime_v1_Brief__Output)[];
  'total': (number);
}
