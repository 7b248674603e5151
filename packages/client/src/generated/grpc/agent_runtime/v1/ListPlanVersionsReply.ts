// Original file: proto/agent_runtime.proto

import type { PlanVersion as _agent_runtime_v1_PlanVersion, PlanVersion__Output as _agent_runtime_v1_PlanVersion__Output } from '../../agent_runtime/v1/PlanVersion';

export interface ListPlanVersionsReply {
  /**
   * Newest first.
   */
  'items'?: (_agent_runtime_v1_PlanVersion)[];
  'total'?: (number);
}

export interface ListPlanVersionsReply__Output {
  /**
   * Newest first.
   */
  'items': (_agent_runtime_v1_PlanVersion__Output)[];
  'total': (number);
}
