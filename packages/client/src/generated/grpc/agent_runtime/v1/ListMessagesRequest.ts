// Original file: proto/agent_runtime.proto


export interface ListMessagesRequest {
  'agent_id'?: (string);
  /**
   * "queued" (default, in the scheduler's order) | "dequeued" | "processed" | "interjected"
   * | "aborted" | "dropped" | "all"
   */
  'status'?: (string);
  'limit'?: (number);
  '_status'?: "status";
  '_limit'?: "limit";
}

export interface ListMessagesRequest__Output {
  'agent_id': (string);
  /**
   * "queued" (default, in the scheduler's order) | "dequeued" | "processed" | "interjected"
   * | "aborted" | "dropped" | "all"
   */
  'status'?: (string);
  'limit'?: (number);
  '_status'?: "status";
  '_limit'?: "limit";
}
