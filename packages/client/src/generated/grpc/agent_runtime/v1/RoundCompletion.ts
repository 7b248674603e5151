// Original file: proto/agent_runtime.proto


/**
 * A successful, transitioning CompleteWorkItem that named the round.
 */
export interface RoundCompletion {
  'work_item_id'?: (string);
  'focused'?: (boolean);
  'unfinished_todo_count'?: (number);
  'pending_todo_count'?: (number);
  'in_progress_todo_count'?: (number);
  'at'?: (string);
}

/**
 * A successful, transitioning CompleteWorkItem that named the round.
 */
export interface RoundCompletion__Output {
  'work_item_id': (string);
  'focused': (boolean);
  'unfinished_todo_count': (number);
  'pending_todo_count': (number);
  'in_progress_todo_count': (number);
  'at': (string);
}
