// Original file: libs/contracts/proto/agent_runtime.proto


export interface Task {
  'id'?: (string);
  'kind'?: (string);
  /**
   * "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled" | "interrupted"
   */
  'status'?: (string);
  /**
   * "background" | "blocking"
   */
  'wait_policy'?: (string);
  'work_item_id'?: (string);
  'summary'?: (string);
  'detail'?: (string);
  'terminal'?: (boolean);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_work_item_id'?: "work_item_id";
  '_summary'?: "summary";
  '_detail'?: "detail";
}

export interface Task__Output {
  'id': (string);
  'kind': (string);
  /**
   * "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled" | "interrupted"
   */
  'status': (string);
  /**
   * "background" | "blocking"
   */
  'wait_policy': (string);
  'work_item_id'?: (string);
  'summary'?: (string);
  'detail'?: (string);
  'terminal': (boolean);
  'created_at': (string);
  'updated_at': (string);
  '_work_item_id'?: "work_item_id";
  '_summary'?: "summary";
  '_detail'?: "detail";
}
