// Original file: proto/agent_runtime.proto

import type { DeliverySummary as _agent_runtime_v1_DeliverySummary, DeliverySummary__Output as _agent_runtime_v1_DeliverySummary__Output } from '../../agent_runtime/v1/DeliverySummary';

export interface ListDeliverySummariesReply {
  /**
   * Newest first.
   */
  'items'?: (_agent_runtime_v1_DeliverySummary)[];
  'total'?: (number);
}

export interface ListDeliverySummariesReply__Output {
  /**
   * Newest first.
   */
  'items': (_agent_runtime_v1_DeliverySummary__Output)[];
  'total': (number);
}
