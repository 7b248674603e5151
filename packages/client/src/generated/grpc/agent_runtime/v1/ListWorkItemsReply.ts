// Original file: proto/agent_runtime.proto

import type { WorkItemView as _agent_runtime_v1_WorkItemView, WorkItemView__Output as _agent_runtime_v1_WorkItemView__Output } from '../../agent_runtime/v1/WorkItemView';

export interface ListWorkItemsReply {
  'items'?: (_agent_runtime_v1_WorkItemView)[];
  /**
   * Matches before `limit`.
   */
  'total'?: (number);
}

export interface ListWorkItemsReply__Output {
  'items': (_agent_runtime_v1_WorkItemView__Output)[];
  /**
   * Matches before `limit`.
   */
  'total': (number);
}
