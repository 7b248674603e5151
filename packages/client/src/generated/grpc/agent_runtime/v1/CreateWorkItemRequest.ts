// Original file: proto/agent_runtime.proto

import type { TodoItem as _agent_runtime_v1_TodoItem, TodoItem__Output as _agent_runtime_v1_TodoItem__Output } from '../../agent_runtime/v1/TodoItem';

export interface CreateWorkItemRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Absent: the server generates `work_<32 hex>` (stable for a repeated command_id).
   */
  'work_item_id'?: (string);
  'objective'?: (string);
  /**
   * "draft" (default) | "ready" | "needs_input"
   */
  'plan_status'?: (string);
  'todo_list'?: (_agent_runtime_v1_TodoItem)[];
  /**
   * Seed text of the plan artifact file.
   */
  'plan'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_work_item_id'?: "work_item_id";
  '_plan_status'?: "plan_status";
  '_plan'?: "plan";
}

export interface CreateWorkItemRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  /**
   * Absent: the server generates `work_<32 hex>` (stable for a repeated command_id).
   */
  'work_item_id'?: (string);
  'objective': (string);
  /**
   * "draft" (default) | "ready" | "needs_input"
   */
  'plan_status'?: (string);
  'todo_list': (_agent_runtime_v1_TodoItem__Output)[];
  /**
   * Seed text of the plan artifact file.
   */
  'plan'?: (string);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_work_item_id'?: "work_item_id";
  '_plan_status'?: "plan_status";
  '_plan'?: "plan";
}
