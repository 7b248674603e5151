// Original file: proto/agent_runtime.proto


export interface ListTimersRequest {
  'agent_id'?: (string);
  /**
   * "all" (default) | "scheduled" | "fired" | "cancelled"
   */
  'status'?: (string);
  'limit'?: (number);
  '_status'?: "status";
  '_limit'?: "limit";
}

export interface ListTimersRequest__Output {
  'agent_id': (string);
  /**
   * "all" (default) | "scheduled" | "fired" | "cancelled"
   */
  'status'?: (string);
  'limit'?: (number);
  '_status'?: "status";
  '_limit'?: "limit";
}
