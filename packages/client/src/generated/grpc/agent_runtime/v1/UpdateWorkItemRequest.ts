// Original file: proto/agent_runtime.proto

import type { TodoItem as _agent_runtime_v1_TodoItem, TodoItem__Output as _agent_runtime_v1_TodoItem__Output } from '../../agent_runtime/v1/TodoItem';

/**
 * PATCH semantics. HTTP tells "leave unchanged" (key absent) from "clear" (`null`, or `[]`
 * for the todo list); proto3 cannot send a null, so:
 * - a scalar is changed when its `optional` field is present;
 * - `blocked_by` / `recheck_at` are cleared with `clear_blocked_by` / `clear_recheck_at`
 * (HTTP `blocked_by: null`, `recheck_at: null`);
 * - a non-empty `todo_list` replaces the list; `clear_todo_list` empties it (HTTP
 * `todo_list: []`); an empty list without the flag leaves it unchanged.
 * Setting a value and its clear flag together is INVALID_ARGUMENT.
 */
export interface UpdateWorkItemRequest {
  'agent_id'?: (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'work_item_id'?: (string);
  'objective'?: (string);
  'plan_status'?: (string);
  'todo_list'?: (_agent_runtime_v1_TodoItem)[];
  'clear_todo_list'?: (boolean);
  'blocked_by'?: (string);
  'clear_blocked_by'?: (boolean);
  /**
   * RFC 3339.
   */
  'recheck_at'?: (string);
  'clear_recheck_at'?: (boolean);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_objective'?: "objective";
  '_plan_status'?: "plan_status";
  '_blocked_by'?: "blocked_by";
  '_recheck_at'?: "recheck_at";
}

/**
 * PATCH semantics. HTTP tells "leave unchanged" (key absent) from "clear" (`null`, or `[]`
 * for the todo list); proto3 cannot send a null, so:
 * - a scalar is changed when its `optional` field is present;
 * - `blocked_by` / `recheck_at` are cleared with `clear_blocked_by` / `clear_recheck_at`
 * (HTTP `blocked_by: null`, `recheck_at: null`);
 * - a non-empty `todo_list` replaces the list; `clear_todo_list` empties it (HTTP
 * `todo_list: []`); an empty list without the flag leaves it unchanged.
 * Setting a value and its clear flag together is INVALID_ARGUMENT.
 */
export interface UpdateWorkItemRequest__Output {
  'agent_id': (string);
  'command_id'?: (string);
  'expected_revision'?: (string);
  'correlation_id'?: (string);
  'work_item_id': (string);
  'objective'?: (string);
  'plan_status'?: (string);
  'todo_list': (_agent_runtime_v1_TodoItem__Output)[];
  'clear_todo_list': (boolean);
  'blocked_by'?: (string);
  'clear_blocked_by': (boolean);
  /**
   * RFC 3339.
   */
  'recheck_at'?: (string);
  'clear_recheck_at': (boolean);
  '_command_id'?: "command_id";
  '_expected_revision'?: "expected_revision";
  '_correlation_id'?: "correlation_id";
  '_objective'?: "objective";
  '_plan_status'?: "plan_status";
  '_blocked_by'?: "blocked_by";
  '_recheck_at'?: "recheck_at";
}
