import type { RecordMap } from '../shared/record-map';
import { compareInstants } from '../shared/time';
import { compareQueued } from '../views/candidate-ranking';
import type { WaitingIntentRecord } from '../waiting-intent/waiting-intent.state';
import type { WorkItem } from '../work-item/work-item.state';
import type { AgentState } from './agent.state';
import type { SchedulingIndex } from './scheduling-index';

// The upkeep of the scheduling index (its shape: scheduling-index.ts): `indexOf` rebuilds it
// from the records, `reindexed` updates it after an event.

type Compare<T> = (a: T, b: T) => number;
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const intentOrder =
  (intents: AgentState['waiting_intents']): Compare<string> =>
  (a, b) =>
    compareInstants(intents.get(a)!.created_at, intents.get(b)!.created_at) || byId(a, b);

/** The candidate ranking's queued order (QUEUED_KEYS), over ids. */
const queuedOrder =
  (items: AgentState['work_items']): Compare<string> =>
  (a, b) =>
    compareQueued(items.get(a)!, items.get(b)!);

const recheckOrder =
  (items: AgentState['work_items']): Compare<string> =>
  (a, b) =>
    compareInstants(items.get(a)!.recheck_at ?? '', items.get(b)!.recheck_at ?? '') || byId(a, b);

const isActive = (intent: WaitingIntentRecord | undefined): boolean => intent?.status === 'active';

/** Runnable as docs/domain-contract.md §2 reads it: open, not needs_input, no active item-scoped intent, no blocker. */
function isRunnable(item: WorkItem | undefined, waitedOn: ReadonlySet<string>): boolean {
  return (
    item !== undefined &&
    item.state === 'open' &&
    item.plan_status !== 'needs_input' &&
    item.blocked_by === null &&
    !waitedOn.has(item.id)
  );
}

const hasRecheck = (item: WorkItem | undefined): boolean =>
  item !== undefined && item.state === 'open' && item.recheck_at !== null;

/** Items with at least one active item-scoped intent. */
function waitedOnItems(state: AgentState, activeIntents: readonly string[]): Set<string> {
  const items = new Set<string>();
  for (const id of activeIntents) {
    const intent = state.waiting_intents.get(id)!;
    if (intent.scope === 'work_item' && intent.work_item_id !== null) items.add(intent.work_item_id);
  }
  return items;
}

/** The index of `state`'s records, built from scratch (a snapshot of an older shape, a test, a check). */
export function schedulingIndexOf(state: AgentState): SchedulingIndex {
  const active_intents = state.waiting_intents
    .keys()
    .filter((id) => isActive(state.waiting_intents.get(id)))
    .sort(intentOrder(state.waiting_intents));
  const waitedOn = waitedOnItems(state, active_intents);
  const ids = state.work_items.keys();
  return {
    active_intents,
    runnable: ids.filter((id) => isRunnable(state.work_items.get(id), waitedOn)).sort(queuedOrder(state.work_items)),
    rechecks: ids.filter((id) => hasRecheck(state.work_items.get(id))).sort(recheckOrder(state.work_items)),
  };
}

/** `list` without `id` (the same array when it was absent). */
function without(list: string[], id: string): string[] {
  const at = list.indexOf(id);
  return at < 0 ? list : [...list.slice(0, at), ...list.slice(at + 1)];
}

/** `list` (sorted by `compare`) with `id` in its place: a binary search, one copy. */
function inserted(list: string[], id: string, compare: Compare<string>): string[] {
  let [low, high] = [0, list.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(list[middle], id) < 0) low = middle + 1;
    else high = middle;
  }
  return [...list.slice(0, low), id, ...list.slice(low)];
}

/** Puts `id` in or out of the sorted `list`, re-placing it when its sort key may have moved. */
function placed(list: string[], id: string, member: boolean, compare: Compare<string>): string[] {
  const rest = without(list, id);
  return member ? inserted(rest, id, compare) : rest;
}

/** The ids of the records that differ between two versions of a collection (only the unshared nodes are visited). */
function changedIds<T>(before: RecordMap<T>, after: RecordMap<T>): string[] {
  return before === after ? [] : after.changedSince(before).map(([id]) => id);
}

/**
 * The index of `after`, the state one event folded `before` into, updated for the records that
 * changed (RecordMap.changedSince: the work items and intents not shared with `before`) and the
 * items of the intents that changed.
 */
export function reindexed(before: AgentState, after: AgentState): SchedulingIndex {
  const index = before.scheduling_index;
  const items = changedIds(before.work_items, after.work_items);
  const intents = changedIds(before.waiting_intents, after.waiting_intents);
  if (items.length === 0 && intents.length === 0) return index;

  let active_intents = index.active_intents;
  const touched = new Set(items);
  for (const id of intents) {
    const [was, is] = [before.waiting_intents.get(id), after.waiting_intents.get(id)];
    if (isActive(was) !== isActive(is))
      active_intents = placed(active_intents, id, isActive(is), intentOrder(after.waiting_intents));
    for (const intent of [was, is])
      if (intent?.scope === 'work_item' && intent.work_item_id !== null) touched.add(intent.work_item_id);
  }
  const waitedOn = touched.size === 0 ? new Set<string>() : waitedOnItems(after, active_intents);
  let { runnable, rechecks } = index;
  for (const id of touched) {
    const item = after.work_items.get(id);
    runnable = placed(runnable, id, isRunnable(item, waitedOn), queuedOrder(after.work_items));
    rechecks = placed(rechecks, id, hasRecheck(item), recheckOrder(after.work_items));
  }
  return { active_intents, runnable, rechecks };
}
