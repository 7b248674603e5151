import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import type { WorkItem } from '../work-item/work-item.state';
import {
  CANDIDATE_CLASS_RANK,
  CANDIDATE_KEYS,
  CANDIDATE_RANKING,
  type CandidateClass,
  type Comparator,
  compareByKeys,
  type FieldValue,
  memoizedInstants,
  type SortKey,
} from './candidate-ranking';
import { isTriggered, readinessOf, triggeredIntentsFor } from './scheduling';

export function isCurrent(state: AgentState, item: WorkItem): boolean {
  return state.current_work_item_id === item.id;
}

/** First match: current_runnable, completed_recent, triggered_blocked, queued_runnable, waiting_for_operator, blocked. */
export function candidateClassOf(state: AgentState, item: WorkItem): CandidateClass {
  const readiness = readinessOf(state, item);
  if (readiness === 'runnable' && isCurrent(state, item)) return 'current_runnable';
  if (item.state === 'completed') return 'completed_recent';
  if (item.blocked_by !== null && triggeredIntentsFor(state, item.id).length > 0) return 'triggered_blocked';
  if (readiness === 'runnable') return 'queued_runnable';
  if (readiness === 'waiting_for_operator') return 'waiting_for_operator';
  return 'blocked';
}

/** Newest trigger among the item's active intents, or null. */
export function lastTriggeredAt(state: AgentState, item: WorkItem): string | null {
  const stamps = triggeredIntentsFor(state, item.id)
    .map((intent) => intent.last_triggered_at)
    .filter((at): at is string => at !== null);
  return stamps.reduce<string | null>(
    (newest, at) => (newest === null || compareInstants(at, newest) > 0 ? at : newest),
    null,
  );
}

/** The value of each rank field for an item of `state` (its trigger time from its intents). */
function valueIn(state: AgentState): FieldValue {
  return (item, field) => (field === 'last_triggered_at' ? lastTriggeredAt(state, item) : item[field]);
}

/** Candidate-ranking order (CANDIDATE_RANKING): class rank, then the class's own keys. */
export function compareCandidates(state: AgentState): Comparator {
  const value = valueIn(state);
  const within = Object.fromEntries(
    CANDIDATE_RANKING.map((ranked) => [ranked.class, compareByKeys(ranked.keys, value)]),
  );
  return (a, b) => {
    const classA = candidateClassOf(state, a);
    const rank = CANDIDATE_CLASS_RANK[classA] - CANDIDATE_CLASS_RANK[candidateClassOf(state, b)];
    return rank !== 0 ? rank : within[classA](a, b);
  };
}

/**
 * The head of the queued runnable items (runnable, not the focus) and how many there are, read
 * from the scheduling index (kept in queued order): no pass over the items.
 */
export function queuedRunnable(state: AgentState): { head: WorkItem | undefined; count: number } {
  const runnable = state.scheduling_index.runnable;
  const focus = state.current_work_item_id;
  const focusAt = focus === null ? -1 : runnable[0] === focus ? 0 : runnable.indexOf(focus);
  const headId = focusAt === 0 ? runnable[1] : runnable[0];
  return {
    head: headId === undefined ? undefined : state.work_items.get(headId),
    count: runnable.length - (focusAt >= 0 ? 1 : 0),
  };
}

/** Open items whose active intents have been triggered: the only possible triggered_blocked candidates. */
function triggeredItems(state: AgentState): WorkItem[] {
  const ids = new Set<string>();
  for (const id of state.scheduling_index.active_intents) {
    const intent = state.waiting_intents.get(id)!;
    if (intent.scope === 'work_item' && intent.work_item_id !== null && isTriggered(intent))
      ids.add(intent.work_item_id);
  }
  return [...ids].map((id) => state.work_items.get(id)).filter((item): item is WorkItem => item !== undefined);
}

/**
 * Items of one class, in that class's ranking order (compareCandidates within one class), or in
 * the order of other `keys` (a what-if policy's: docs/decisions/0037).
 */
export function rankedCandidates(
  state: AgentState,
  candidateClass: CandidateClass,
  keys: readonly SortKey[] = CANDIDATE_KEYS[candidateClass],
): WorkItem[] {
  const declared = keys === CANDIDATE_KEYS[candidateClass];
  if (candidateClass === 'queued_runnable') {
    const queued = state.scheduling_index.runnable
      .filter((id) => id !== state.current_work_item_id)
      .map((id) => state.work_items.get(id)!);
    return declared ? queued : queued.sort(withinClassComparator(state, keys, queued));
  }
  const pool = candidateClass === 'triggered_blocked' ? triggeredItems(state) : state.work_items.values();
  const items = pool.filter((item) => candidateClassOf(state, item) === candidateClass);
  return items.sort(withinClassComparator(state, keys, items));
}

/**
 * The class's own keys with each item's values computed once per item instead of once per
 * comparison (an agent may hold thousands of items): the same order as compareCandidates for one class.
 */
export function withinClassComparator(state: AgentState, keys: readonly SortKey[], items: WorkItem[]): Comparator {
  const triggered = keys.some((key) => key.field === 'last_triggered_at')
    ? new Map(items.map((item) => [item.id, lastTriggeredAt(state, item)]))
    : new Map<string, string | null>();
  const value: FieldValue = (item, field) =>
    field === 'last_triggered_at' ? (triggered.get(item.id) ?? null) : item[field];
  return compareByKeys(keys, value, memoizedInstants());
}
