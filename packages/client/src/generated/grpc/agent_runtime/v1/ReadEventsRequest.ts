// Original file: proto/agent_runtime.proto


export interface ReadEventsRequest {
  'agent_id'?: (string);
  /**
   * Exclusive: events with a revision above it (a decimal string); absent: from the start.
   */
  'after'?: (string);
  /**
   * 1..1000 (default 100).
   */
  'limit'?: (number);
  /**
   * Accepted and ignored as over HTTP: the events are read from the store.
   */
  'min_position'?: (string);
  '_after'?: "after";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ReadEventsRequest__Output {
  'agent_id': (string);
  /**
   * Exclusive: events with a revision above it (a decimal string); absent: from the start.
   */
  'after'?: (string);
  /**
   * 1..1000 (default 100).
   */
  'limit'?: (number);
  /**
   * Accepted and ignored as over HTTP: the events are read from the store.
   */
  'min_position'?: (string);
  '_after'?: "after";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
