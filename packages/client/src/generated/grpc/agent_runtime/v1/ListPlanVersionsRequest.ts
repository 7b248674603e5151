// Original file: proto/agent_runtime.proto


export interface ListPlanVersionsRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
  /**
   * Accepted and ignored as on GetPlan: the versions are read from the agent's events.
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}

export interface ListPlanVersionsRequest__Output {
  'agent_id': (string);
  'work_item_id': (string);
  /**
   * Accepted and ignored as on GetPlan: the versions are read from the agent's events.
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}
