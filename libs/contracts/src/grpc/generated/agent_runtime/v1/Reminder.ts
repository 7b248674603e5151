// Original file: libs/contracts/proto/agent_runtime.proto

import type { TodoItem as _agent_runtime_v1_TodoItem, TodoItem__Output as _agent_runtime_v1_TodoItem__Output } from '../../agent_runtime/v1/TodoItem';

/**
 * A reminder of what looks stale; the runtime never edits a todo itself.
 */
export interface Reminder {
  /**
   * "rounds_without_work_item_change" | "stale_in_progress_todo" | "completed_with_unfinished_todos"
   */
  'kind'?: (string);
  'work_item_id'?: (string);
  /**
   * The todo concerned, when there is one.
   */
  'todo'?: (_agent_runtime_v1_TodoItem | null);
  'detail'?: (string);
}

/**
 * A reminder of what looks stale; the runtime never edits a todo itself.
 */
export interface Reminder__Output {
  /**
   * "rounds_without_work_item_change" | "stale_in_progress_todo" | "completed_with_unfinished_todos"
   */
  'kind': (string);
  'work_item_id': (string);
  /**
   * The todo concerned, when there is one.
   */
  'todo': (_agent_runtime_v1_TodoItem__Output | null);
  'detail': (string);
}
