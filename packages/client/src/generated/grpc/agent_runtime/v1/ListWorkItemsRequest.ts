// Original file: proto/agent_runtime.proto


export interface ListWorkItemsRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "open" | "completed" | "current" | "queued" | "blocked"
   * | "waiting_for_operator" | "runnable" | "triggered"
   */
  'filter'?: (string);
  /**
   * Default 20, clamped to 1..100.
   */
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_filter'?: "filter";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}

export interface ListWorkItemsRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "open" | "completed" | "current" | "queued" | "blocked"
   * | "waiting_for_operator" | "runnable" | "triggered"
   */
  'filter'?: (string);
  /**
   * Default 20, clamped to 1..100.
   */
  'limit'?: (number);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_filter'?: "filter";
  '_limit'?: "limit";
  '_min_position'?: "min_position";
}
