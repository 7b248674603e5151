// Original file: proto/agent_runtime.proto

import type { Decision as _agent_runtime_v1_Decision, Decision__Output as _agent_runtime_v1_Decision__Output } from '../../agent_runtime/v1/Decision';

export interface ListDecisionsReply {
  /**
   * Newest first.
   */
  'items'?: (_agent_runtime_v1_Decision)[];
  'total'?: (number);
}

export interface ListDecisionsReply__Output {
  /**
   * Newest first.
   */
  'items': (_agent_runtime_v1_Decision__Output)[];
  'total': (number);
}
