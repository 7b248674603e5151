import type { AgentState } from '../agent/agent.state';
import { compareInstants, compareInstantsDescNullsLast } from '../shared/time';
import type { WorkItem } from '../work-item/work-item.state';
import { isTriggered, readinessOf, triggeredIntentsFor } from './scheduling';

export type CandidateClass =
  | 'current_runnable'
  | 'completed_recent'
  | 'triggered_blocked'
  | 'queued_runnable'
  | 'waiting_for_operator'
  | 'blocked';

/** The order in which the scheduler considers classes (SPEC.md §5), used to rank across classes. */
export const CANDIDATE_CLASS_RANK: Record<CandidateClass, number> = {
  current_runnable: 0,
  triggered_blocked: 1,
  queued_runnable: 2,
  waiting_for_operator: 3,
  blocked: 4,
  completed_recent: 5,
};

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
  return stamps.reduce<string | null>((newest, at) => (newest === null || compareInstants(at, newest) > 0 ? at : newest), null);
}

export type Comparator = (a: WorkItem, b: WorkItem) => number;

const byIdAsc: Comparator = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byUpdatedDesc: Comparator = (a, b) => compareInstants(b.updated_at, a.updated_at);
const byUpdatedAsc: Comparator = (a, b) => compareInstants(a.updated_at, b.updated_at);
const byCreatedAsc: Comparator = (a, b) => compareInstants(a.created_at, b.created_at);

const chain = (...comparators: Comparator[]): Comparator => (a, b) => {
  for (const compare of comparators) {
    const result = compare(a, b);
    if (result !== 0) return result;
  }
  return 0;
};

/** Queued runnable: oldest-touched first (fairness), then oldest created, then id. */
export const compareQueued: Comparator = chain(byUpdatedAsc, byCreatedAsc, byIdAsc);

/** Everything that is neither queued nor triggered: most recently updated first, then id. */
export const compareByRecency: Comparator = chain(byUpdatedDesc, byIdAsc);

/**
 * compareInstants with each text parsed once (a sort makes O(n log n) comparisons of n
 * stamps): one per sort, since the memo grows with the texts it sees.
 */
function memoizedInstants(): (a: string, b: string) => number {
  const parsed = new Map<string, number>();
  const instant = (text: string): number => parsed.get(text) ?? parsed.set(text, Date.parse(text)).get(text)!;
  return (a, b) => {
    const diff = instant(a) - instant(b);
    if (Number.isFinite(diff) && diff !== 0) return diff;
    return a < b ? -1 : a > b ? 1 : 0;
  };
}

/** The order of compareByRecency for one sort of many items (each stamp parsed once). */
export function recencyComparator(): Comparator {
  const compare = memoizedInstants();
  return chain((a, b) => compare(b.updated_at, a.updated_at), byIdAsc);
}

/** Triggered: most recently triggered first, then most recently updated, then id. */
export function compareTriggered(state: AgentState): Comparator {
  const byTriggerDesc: Comparator = (a, b) =>
    compareInstantsDescNullsLast(lastTriggeredAt(state, a), lastTriggeredAt(state, b));
  return chain(byTriggerDesc, byUpdatedDesc, byIdAsc);
}

/** Candidate-ranking order: class rank, then the class's own ordering (id ascending last). */
export function compareCandidates(state: AgentState): Comparator {
  const triggered = compareTriggered(state);
  return (a, b) => {
    const classA = candidateClassOf(state, a);
    const rank = CANDIDATE_CLASS_RANK[classA] - CANDIDATE_CLASS_RANK[candidateClassOf(state, b)];
    if (rank !== 0) return rank;
    if (classA === 'triggered_blocked') return triggered(a, b);
    if (classA === 'queued_runnable') return compareQueued(a, b);
    return compareByRecency(a, b);
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
  return { head: headId === undefined ? undefined : state.work_items.get(headId), count: runnable.length - (focusAt >= 0 ? 1 : 0) };
}

/** Open items whose active intents have been triggered: the only possible triggered_blocked candidates. */
function triggeredItems(state: AgentState): WorkItem[] {
  const ids = new Set<string>();
  for (const id of state.scheduling_index.active_intents) {
    const intent = state.waiting_intents.get(id)!;
    if (intent.scope === 'work_item' && intent.work_item_id !== null && isTriggered(intent)) ids.add(intent.work_item_id);
  }
  return [...ids].map((id) => state.work_items.get(id)).filter((item): item is WorkItem => item !== undefined);
}

/** Items of one class, in that class's ranking order (compareCandidates within one class). */
export function rankedCandidates(state: AgentState, candidateClass: CandidateClass): WorkItem[] {
  if (candidateClass === 'queued_runnable') {
    return state.scheduling_index.runnable.filter((id) => id !== state.current_work_item_id).map((id) => state.work_items.get(id)!);
  }
  const pool = candidateClass === 'triggered_blocked' ? triggeredItems(state) : state.work_items.values();
  const items = pool.filter((item) => candidateClassOf(state, item) === candidateClass);
  return items.sort(withinClassComparator(state, candidateClass, items));
}

/**
 * The class's own order with its keys computed once per item instead of once per comparison
 * (an agent may hold thousands of items): the same order as compareCandidates for one class.
 */
function withinClassComparator(state: AgentState, candidateClass: CandidateClass, items: WorkItem[]): Comparator {
  const compare = memoizedInstants();
  const updatedAsc: Comparator = (a, b) => compare(a.updated_at, b.updated_at);
  const updatedDesc: Comparator = (a, b) => compare(b.updated_at, a.updated_at);
  if (candidateClass === 'queued_runnable') return chain(updatedAsc, (a, b) => compare(a.created_at, b.created_at), byIdAsc);
  if (candidateClass !== 'triggered_blocked') return chain(updatedDesc, byIdAsc);
  const triggeredAt = new Map(items.map((item) => [item.id, lastTriggeredAt(state, item)]));
  const byTriggerDesc: Comparator = (a, b) => {
    const [x, y] = [triggeredAt.get(a.id) ?? null, triggeredAt.get(b.id) ?? null];
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return compare(y, x);
  };
  return chain(byTriggerDesc, updatedDesc, byIdAsc);
}
