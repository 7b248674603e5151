// Original file: proto/agent_runtime.proto


/**
 * One event of the agent's stream (an item of GET /v1/agents/{a}/events), upcast to the
 * current schema of its type. HTTP's `data` and `metadata` (JSON objects) are their JSON text.
 */
export interface AgentEvent {
  'event_id'?: (string);
  /**
   * The agent stream revision (decimal string): the cursor of ReadEvents and WatchEvents.
   */
  'revision'?: (string);
  /**
   * The store's global position (decimal string).
   */
  'position'?: (string);
  'type'?: (string);
  'data_json'?: (string);
  'metadata_json'?: (string);
  'recorded_at'?: (string);
}

/**
 * One event of the agent's stream (an item of GET /v1/agents/{a}/events), upcast to the
 * current schema of its type. HTTP's `data` and `metadata` (JSON objects) are their JSON text.
 */
export interface AgentEvent__Output {
  'event_id': (string);
  /**
   * The agent stream revision (decimal string): the cursor of ReadEvents and WatchEvents.
   */
  'revision': (string);
  /**
   * The store's global position (decimal string).
   */
  'position': (string);
  'type': (string);
  'data_json': (string);
  'metadata_json': (string);
  'recorded_at': (string);
}
