// Original file: proto/agent_runtime.proto


export interface WatchChangesRequest {
  /**
   * Exclusive global position to resume after; absent: from now on (the store's head when
   * the call arrives: the response headers come once it is fixed).
   */
  'after'?: (string);
  '_after'?: "after";
}

export interface WatchChangesRequest__Output {
  /**
   * Exclusive global position to resume after; absent: from now on (the store's head when
   * the call arrives: the response headers come once it is fixed).
   */
  'after'?: (string);
  '_after'?: "after";
}
