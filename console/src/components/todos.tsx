import type { Todo } from '../types';

const STATE_LABEL: Record<Todo['state'], string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'done',
};

/** The todo list with its current todo marked (first in progress, else first pending). */
export function TodoList({ todos, current }: { todos: Todo[]; current: Todo | null }) {
  if (!todos.length) return <p class="muted">No todos.</p>;
  const currentIndex = current
    ? todos.findIndex((todo) => todo.text === current.text && todo.state === current.state)
    : -1;
  return (
    <ol class="todos">
      {todos.map((todo, index) => {
        const isCurrent = index === currentIndex;
        return (
          <li
            key={index}
            class={`todo todo-${todo.state}${isCurrent ? ' todo-current' : ''}`}
            aria-current={isCurrent ? 'step' : undefined}
          >
            <span class="todo-state">{STATE_LABEL[todo.state]}</span> {todo.text}
            {isCurrent && <strong class="tag tag-current">current</strong>}
          </li>
        );
      })}
    </ol>
  );
}
