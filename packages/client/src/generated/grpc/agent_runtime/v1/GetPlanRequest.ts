// Original file: proto/agent_runtime.proto


export interface GetPlanRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
  /**
   * A "sha256:<hex>" hash the item's events recorded: that version's body (NOT_FOUND for any other).
   */
  'version'?: (string);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_version'?: "version";
  '_min_position'?: "min_position";
}

export interface GetPlanRequest__Output {
  'agent_id': (string);
  'work_item_id': (string);
  /**
   * A "sha256:<hex>" hash the item's events recorded: that version's body (NOT_FOUND for any other).
   */
  'version'?: (string);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_version'?: "version";
  '_min_position'?: "min_position";
}
