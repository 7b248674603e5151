import type { AgentState } from '../agent/agent.state';
import { isTerminalTaskStatus, type TaskRecord } from '../task/task.state';
import { compareInstants } from '../shared/time';
import { type ListReply, page, parseListParam } from './list';

export type TaskView = TaskRecord & { terminal: boolean };

export function toTaskView(task: TaskRecord): TaskView {
  return { ...task, terminal: isTerminalTaskStatus(task.status) };
}

export type TaskListFilter = 'all' | 'active' | 'terminal';
export const TASK_LIST_FILTERS: readonly TaskListFilter[] = ['all', 'active', 'terminal'];
export type TaskListQuery = { filter?: TaskListFilter; work_item_id?: string; limit?: number };

/** GET tasks: newest first (created_at desc, then id). */
export function listTasks(state: AgentState, query: TaskListQuery = {}): ListReply<TaskView> {
  const filter = parseListParam(query.filter, 'filter', TASK_LIST_FILTERS, 'all');
  const matches = state.tasks
    .values()
    .filter((task) => filter === 'all' || (filter === 'terminal') === isTerminalTaskStatus(task.status))
    .filter((task) => query.work_item_id === undefined || task.work_item_id === query.work_item_id)
    .sort((a, b) => compareInstants(b.created_at, a.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return page(matches, query.limit, toTaskView);
}
