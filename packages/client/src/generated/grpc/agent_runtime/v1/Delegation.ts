// Original file: proto/agent_runtime.proto


/**
 * One delegation as one agent sees it.
 */
export interface Delegation {
  'delegation_id'?: (string);
  /**
   * "child" (this agent delegated to the child) | "parent" (it works for the parent)
   */
  'direction'?: (string);
  'parent_agent_id'?: (string);
  'parent_work_item_id'?: (string);
  'child_agent_id'?: (string);
  'child_work_item_id'?: (string);
  /**
   * "delegated" | "working" | "completed" | "cancelled" | "failed"
   */
  'state'?: (string);
  'counterpart_state'?: (string);
  'result_summary'?: (string);
  'reason'?: (string);
  'label'?: (string);
  'task_id'?: (string);
  'delegated_at'?: (string);
  'ended_at'?: (string);
  'flagged'?: (boolean);
  /**
   * "counterpart_missing" | "completion_missing"
   */
  'flag'?: (string);
  '_child_work_item_id'?: "child_work_item_id";
  '_counterpart_state'?: "counterpart_state";
  '_result_summary'?: "result_summary";
  '_reason'?: "reason";
  '_ended_at'?: "ended_at";
  '_flag'?: "flag";
}

/**
 * One delegation as one agent sees it.
 */
export interface Delegation__Output {
  'delegation_id': (string);
  /**
   * "child" (this agent delegated to the child) | "parent" (it works for the parent)
   */
  'direction': (string);
  'parent_agent_id': (string);
  'parent_work_item_id': (string);
  'child_agent_id': (string);
  'child_work_item_id'?: (string);
  /**
   * "delegated" | "working" | "completed" | "cancelled" | "failed"
   */
  'state': (string);
  'counterpart_state'?: (string);
  'result_summary'?: (string);
  'reason'?: (string);
  'label': (string);
  'task_id': (string);
  'delegated_at': (string);
  'ended_at'?: (string);
  'flagged': (boolean);
  /**
   * "counterpart_missing" | "completion_missing"
   */
  'flag'?: (string);
  '_child_work_item_id'?: "child_work_item_id";
  '_counterpart_state'?: "counterpart_state";
  '_result_summary'?: "result_summary";
  '_reason'?: "reason";
  '_ended_at'?: "ended_at";
  '_flag'?: "flag";
}
