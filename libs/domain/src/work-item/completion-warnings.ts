import type { Warning } from '../shared/warnings';
import { unfinishedTodos } from '../views/todo';
import type { TodoItem } from './work-item.state';

export const UNFINISHED_TODOS_WARNING = 'unfinished_todos';
export const UNFINISHED_TODOS_SAMPLE_SIZE = 5;

type UnfinishedCounts = {
  completed_with_unfinished_todos?: boolean;
  pending_todo_count: number;
  in_progress_todo_count: number;
};

/** The warning of a completion with unfinished todos (reply of CompleteWorkItem, evidence of a delivery summary); none otherwise. */
export function unfinishedTodosWarnings(counts: UnfinishedCounts, todoList: readonly TodoItem[]): Warning[] {
  if (counts.pending_todo_count + counts.in_progress_todo_count === 0) return [];
  return [
    {
      kind: UNFINISHED_TODOS_WARNING,
      message: 'Work item completed with unfinished todo items.',
      pending_count: counts.pending_todo_count,
      in_progress_count: counts.in_progress_todo_count,
      sample: unfinishedTodos(todoList, UNFINISHED_TODOS_SAMPLE_SIZE).map((todo) => ({ ...todo })),
    },
  ];
}
