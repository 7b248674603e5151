// Original file: proto/agent_runtime.proto


export interface WatchEventsRequest {
  'agent_id'?: (string);
  /**
   * Exclusive revision to resume after (the last one received); absent: from the start.
   */
  'after'?: (string);
  '_after'?: "after";
}

export interface WatchEventsRequest__Output {
  'agent_id': (string);
  /**
   * Exclusive revision to resume after (the last one received); absent: from the start.
   */
  'after'?: (string);
  '_after'?: "after";
}
