import type { AgentState } from '../agent/agent.state';
import { isTerminalTaskStatus, type TaskRecord } from '../task/task.state';
import { compareInstants } from '../shared/time';
import { isOverdue } from '../task/task-lease';
import { type ListReply, page, parseListParam } from './list';

/** `overdue` (with a reader's clock): active and past its expected end (`lease_expires_at`). */
export type TaskView = TaskRecord & { terminal: boolean; overdue?: boolean };

export function toTaskView(task: TaskRecord, now: string | null = null): TaskView {
  const view: TaskView = { ...task, terminal: isTerminalTaskStatus(task.status) };
  return now === null ? view : { ...view, overdue: isOverdue(task, now) };
}

export type TaskListFilter = 'all' | 'active' | 'terminal';
export const TASK_LIST_FILTERS: readonly TaskListFilter[] = ['all', 'active', 'terminal'];
/** `now`: the reader's clock (each view then says whether it is `overdue`). */
export type TaskListQuery = { filter?: TaskListFilter; work_item_id?: string; limit?: number; now?: string };

/** GET tasks: newest first (created_at desc, then id). */
export function listTasks(state: AgentState, query: TaskListQuery = {}): ListReply<TaskView> {
  const filter = parseListParam(query.filter, 'filter', TASK_LIST_FILTERS, 'all');
  const matches = state.tasks
    .values()
    .filter((task) => filter === 'all' || (filter === 'terminal') === isTerminalTaskStatus(task.status))
    .filter((task) => query.work_item_id === undefined || task.work_item_id === query.work_item_id)
    .sort((a, b) => compareInstants(b.created_at, a.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return page(matches, query.limit, (task) => toTaskView(task, query.now ?? null));
}
