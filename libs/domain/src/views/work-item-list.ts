import type { AgentState } from '../agent/agent.state';
import { DomainError } from '../shared/domain-error';
import type { WorkItem } from '../work-item/work-item.state';
import { compareByRecency, type Comparator } from './candidate-ranking';
import { compareCandidates, isCurrent } from './candidates';
import { page } from './list';
import { readinessOf, triggeredIntentsFor } from './scheduling';
import { toWorkItemView, type WorkItemView } from './work-item.view';

export const WORK_ITEM_LIST_FILTERS = [
  'all',
  'open',
  'completed',
  'current',
  'queued',
  'blocked',
  'waiting_for_operator',
  'runnable',
  'triggered',
] as const;

export type WorkItemListFilter = (typeof WORK_ITEM_LIST_FILTERS)[number];

/**
 * The filters of `GET .../work-items`: the live ones above, and `archived`, the items a
 * WorkItemsArchived took out of the live state (only the read model lists them; `all` does not).
 */
export const WORK_ITEM_QUERY_FILTERS = [...WORK_ITEM_LIST_FILTERS, 'archived'] as const;
export type WorkItemQueryFilter = (typeof WORK_ITEM_QUERY_FILTERS)[number];

export { clampListLimit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from './list';

export type WorkItemListQuery = { filter?: WorkItemListFilter; limit?: number };
export type WorkItemList = { items: WorkItemView[]; total: number };

type Predicate = (state: AgentState, item: WorkItem) => boolean;

const isOpen = (item: WorkItem): boolean => item.state === 'open';

const FILTERS: Record<WorkItemListFilter, Predicate> = {
  all: () => true,
  open: (_s, item) => isOpen(item),
  completed: (_s, item) => item.state === 'completed',
  current: (s, item) => isOpen(item) && isCurrent(s, item),
  queued: (s, item) => isOpen(item) && !isCurrent(s, item) && readinessOf(s, item) === 'runnable',
  blocked: (s, item) => !isCurrent(s, item) && readinessOf(s, item) === 'blocked',
  waiting_for_operator: (s, item) => readinessOf(s, item) === 'waiting_for_operator',
  runnable: (s, item) => readinessOf(s, item) === 'runnable',
  triggered: (s, item) => isOpen(item) && triggeredIntentsFor(s, item.id).length > 0,
};

/** The lists that come in the order the scheduler would take them (the candidate ranking); the rest newest first. */
export const RANKED_LIST_FILTERS: readonly WorkItemListFilter[] = ['queued', 'triggered'];

function orderFor(state: AgentState, filter: WorkItemListFilter): Comparator {
  return RANKED_LIST_FILTERS.includes(filter) ? compareCandidates(state) : compareByRecency;
}

export function parseListFilter(value: unknown): WorkItemListFilter {
  if (value === undefined || value === null || value === '') return 'all';
  if (typeof value === 'string' && (WORK_ITEM_LIST_FILTERS as readonly string[]).includes(value)) {
    return value as WorkItemListFilter;
  }
  throw new DomainError('validation_failed', {
    field: 'filter',
    rule: 'unknown_filter',
    allowed: WORK_ITEM_LIST_FILTERS,
  });
}

/** How many items match a filter (no limit). */
export function countWorkItems(state: AgentState, filter: WorkItemListFilter): number {
  return state.work_items.values().filter((item) => FILTERS[filter](state, item)).length;
}

/** ListWorkItems: matching items in the filter's order, cut to the limit; `total` counts every match. */
export function listWorkItems(state: AgentState, query: WorkItemListQuery = {}): WorkItemList {
  const filter = parseListFilter(query.filter);
  const matches = state.work_items
    .values()
    .filter((item) => FILTERS[filter](state, item))
    .sort(orderFor(state, filter));
  return page(matches, query.limit, (item) => toWorkItemView(state, item));
}
