// Original file: proto/agent_runtime.proto


/**
 * What changed (GET /v1/changes' `change` frame): no event data; re-read what it touched.
 */
export interface Change {
  'agent_id'?: (string);
  'revision'?: (string);
  /**
   * The cursor of WatchChanges (decimal string).
   */
  'position'?: (string);
  'type'?: (string);
}

/**
 * What changed (GET /v1/changes' `change` frame): no event data; re-read what it touched.
 */
export interface Change__Output {
  'agent_id': (string);
  'revision': (string);
  /**
   * The cursor of WatchChanges (decimal string).
   */
  'position': (string);
  'type': (string);
}
