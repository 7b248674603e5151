// Original file: libs/contracts/proto/agent_runtime.proto


export interface GetWorkItemWhyRequest {
  'agent_id'?: (string);
  'work_item_id'?: (string);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}

export interface GetWorkItemWhyRequest__Output {
  'agent_id': (string);
  'work_item_id': (string);
  /**
   * Answer once the read models include this global position (a command reply's `position`).
   */
  'min_position'?: (string);
  '_min_position'?: "min_position";
}
