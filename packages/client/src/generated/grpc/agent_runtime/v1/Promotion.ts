// Original file: proto/agent_runtime.proto


/**
 * Where a round's completion report went (ids derived from the round id).
 */
export interface Promotion {
  'work_item_id'?: (string);
  'delivery_summary_id'?: (string);
  'brief_id'?: (string);
}

/**
 * Where a round's completion report went (ids derived from the round id).
 */
export interface Promotion__Output {
  'work_item_id': (string);
  'delivery_summary_id': (string);
  'brief_id': (string);
}
