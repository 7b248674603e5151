// Original file: proto/agent_runtime.proto


export interface ListMessagesRequest {
  'agent_id'?: (string);
  /**
   * "queued" (default, in the scheduler's order) | "dequeued" | "processed" | "interjected"
   * | "aborted" | "dropped" | "all"
   */
  'status'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_status'?: "status";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ListMessagesRequest__Output {
  'agent_id': (string);
  /**
   * "queued" (default, in the scheduler's order) | "dequeued" | "processed" | "interjected"
   * | "aborted" | "dropped" | "all"
   */
  'status'?: (string);
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_status'?: "status";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
