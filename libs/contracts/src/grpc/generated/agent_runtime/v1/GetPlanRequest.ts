// Original file: libs/contracts/proto/agent_runtime.proto


export interface GetPlanRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
  /**
   * A "sha256:<hex>" hash the item's events recorded: that version's body (NOT_FOUND for any other).
   */
  'version'?: (string);
  '_version'?: "version";
}

export interface GetPlanRequest__Output {
  'agent_id': (string);
  'work_item_id': (string);
  /**
   * A "sha256:<hex>" hash the item's events recorded: that version's body (NOT_FOUND for any other).
   */
  'version'?: (string);
  '_version'?: "version";
}
