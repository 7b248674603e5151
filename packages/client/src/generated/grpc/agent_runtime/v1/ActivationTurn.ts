// Original file: proto/agent_runtime.proto


/**
 * The turn of an activation or a heartbeat.
 */
export interface ActivationTurn {
  'turn_id'?: (string);
  'turn_index'?: (number);
  'lease_expires_at'?: (string);
  /**
   * The focus bound at start, if any.
   */
  'work_item_id'?: (string);
  '_work_item_id'?: "work_item_id";
}

/**
 * The turn of an activation or a heartbeat.
 */
export interface ActivationTurn__Output {
  'turn_id': (string);
  'turn_index': (number);
  'lease_expires_at': (string);
  /**
   * The focus bound at start, if any.
   */
  'work_item_id'?: (string);
  '_work_item_id'?: "work_item_id";
}
