import type { TodoItem } from '../work-item/work-item.state';

/** First `in_progress`, else first `pending`, else null. */
export function currentTodo(todoList: readonly TodoItem[]): TodoItem | null {
  return (
    todoList.find((todo) => todo.state === 'in_progress') ?? todoList.find((todo) => todo.state === 'pending') ?? null
  );
}

export type TodoCounts = { pending: number; in_progress: number; completed: number; unfinished: number };

export function todoCounts(todoList: readonly TodoItem[]): TodoCounts {
  const count = (state: TodoItem['state']) => todoList.filter((todo) => todo.state === state).length;
  const pending = count('pending');
  const inProgress = count('in_progress');
  return { pending, in_progress: inProgress, completed: count('completed'), unfinished: pending + inProgress };
}

/** The first `limit` unfinished todos, in list order. */
export function unfinishedTodos(todoList: readonly TodoItem[], limit = Infinity): TodoItem[] {
  return todoList.filter((todo) => todo.state !== 'completed').slice(0, limit);
}
