// Original file: libs/contracts/proto/agent_runtime.proto


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
  '_after'?: "after";
  '_limit'?: "limit";
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
  '_after'?: "after";
  '_limit'?: "limit";
}
