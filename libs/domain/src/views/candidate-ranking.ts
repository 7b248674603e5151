import { compareInstants } from '../shared/time';
import type { WorkItem } from '../work-item/work-item.state';

// The candidate ranking (ADR 0002 §13), declared once as data. The domain's comparators, the
// scheduling index's queued order and the read model's SQL ORDER BY are all derived from it.

export type CandidateClass =
  | 'current_runnable'
  | 'completed_recent'
  | 'triggered_blocked'
  | 'queued_runnable'
  | 'waiting_for_operator'
  | 'blocked';

/** What an item is ranked on: its own stamps and id, and the newest trigger among its active intents. */
export type RankField = 'last_triggered_at' | 'updated_at' | 'created_at' | 'id';
/** The fields a work item record holds by itself (no intent needed). */
export type ItemRankField = Exclude<RankField, 'last_triggered_at'>;

export type SortDirection = 'asc' | 'desc';

/**
 * One sort key. Stamps compare as instants (compareInstants: offsets respected, equal
 * milliseconds fall back to the digits below them, then to the text); ids in code-unit order
 * (SQL `COLLATE "C"`; ids are ASCII).
 * The one nullable field says where its nulls go, whatever the direction.
 *
 * The read model orders its timestamptz columns (microsecond instants). That is this order for
 * every stamp the runtime writes (its clock's toISOString: one form, milliseconds, Z; a caller's
 * stamp is stored in parseRfc3339's UTC form); the two would part only on two texts of one
 * instant (`...:00Z` and `...:00.000Z`), which the domain orders by their text and Postgres not
 * at all, or on digits below the microsecond, which Postgres rounds.
 */
export type SortKey =
  | { readonly field: ItemRankField; readonly direction: SortDirection }
  | { readonly field: 'last_triggered_at'; readonly direction: SortDirection; readonly nulls: 'first' | 'last' };

/** A key on the item alone. */
export type ItemSortKey = Extract<SortKey, { field: ItemRankField }>;

const ID_ASC: ItemSortKey = { field: 'id', direction: 'asc' };

/** Most recently updated first, then id: the classes with no order of their own, and the lists not in scheduler order. */
export const RECENCY_KEYS: readonly ItemSortKey[] = [{ field: 'updated_at', direction: 'desc' }, ID_ASC];

/** Queued runnable: oldest-touched first (fairness), then oldest created, then id. */
export const QUEUED_KEYS: readonly ItemSortKey[] = [
  { field: 'updated_at', direction: 'asc' },
  { field: 'created_at', direction: 'asc' },
  ID_ASC,
];

/** Triggered blocked: most recently triggered first, then most recently updated, then id. */
export const TRIGGERED_KEYS: readonly SortKey[] = [
  { field: 'last_triggered_at', direction: 'desc', nulls: 'last' },
  { field: 'updated_at', direction: 'desc' },
  ID_ASC,
];

export type RankedClass = { readonly class: CandidateClass; readonly keys: readonly SortKey[] };

/**
 * The ranking: the classes in the order the scheduler considers them (docs/domain-contract.md §5), which ranks
 * across classes, and inside each class its sort keys (the last one `id` ascending).
 */
export const CANDIDATE_RANKING: readonly RankedClass[] = [
  { class: 'current_runnable', keys: RECENCY_KEYS },
  { class: 'triggered_blocked', keys: TRIGGERED_KEYS },
  { class: 'queued_runnable', keys: QUEUED_KEYS },
  { class: 'waiting_for_operator', keys: RECENCY_KEYS },
  { class: 'blocked', keys: RECENCY_KEYS },
  { class: 'completed_recent', keys: RECENCY_KEYS },
];

/** The position of each class in the scheduler's order, used to rank across classes. */
export const CANDIDATE_CLASS_RANK = Object.fromEntries(
  CANDIDATE_RANKING.map((ranked, rank) => [ranked.class, rank]),
) as Readonly<Record<CandidateClass, number>>;

/** The sort keys of one class. */
export const CANDIDATE_KEYS = Object.fromEntries(
  CANDIDATE_RANKING.map((ranked) => [ranked.class, ranked.keys]),
) as Readonly<Record<CandidateClass, readonly SortKey[]>>;

export type Comparator = (a: WorkItem, b: WorkItem) => number;
type Instants = (a: string, b: string) => number;
/** The value of a field for an item (last_triggered_at needs the item's intents: the caller knows them). */
export type FieldValue<F extends RankField = RankField> = (item: WorkItem, field: F) => string | null;

function compareKey(key: SortKey, x: string | null, y: string | null, instants: Instants): number {
  if (x === y) return 0;
  if (x === null || y === null) {
    const nullsLast = key.field === 'last_triggered_at' && key.nulls === 'last';
    return (x === null) === nullsLast ? 1 : -1;
  }
  const order = key.field === 'id' ? (x < y ? -1 : 1) : instants(x, y);
  return key.direction === 'asc' ? order : -order;
}

/**
 * The order of a key list: the first key that tells two items apart decides. `instants` is
 * compareInstants or a memoized copy of it (memoizedInstants).
 */
export function compareByKeys<K extends SortKey>(
  keys: readonly K[],
  value: FieldValue<K['field']>,
  instants: Instants = compareInstants,
): Comparator {
  return (a, b) => {
    for (const key of keys) {
      const result = compareKey(key, value(a, key.field), value(b, key.field), instants);
      if (result !== 0) return result;
    }
    return 0;
  };
}

/** The value of a field the item holds itself. */
export const itemValue: FieldValue<ItemRankField> = (item, field) => item[field];

/**
 * compareInstants with each text parsed once (a sort makes O(n log n) comparisons of n
 * stamps): one per sort, since the memo grows with the texts it sees.
 */
export function memoizedInstants(): Instants {
  const parsed = new Map<string, number>();
  const instant = (text: string): number => parsed.get(text) ?? parsed.set(text, Date.parse(text)).get(text)!;
  return (a, b) => {
    const diff = instant(a) - instant(b);
    if (Number.isFinite(diff) && diff !== 0) return diff;
    return compareInstants(a, b);
  };
}

/** Queued runnable order, on the items alone: the scheduling index keeps its runnable ids in it. */
export const compareQueued: Comparator = compareByKeys(QUEUED_KEYS, itemValue);

/** Everything that is neither queued nor triggered: most recently updated first, then id. */
export const compareByRecency: Comparator = compareByKeys(RECENCY_KEYS, itemValue);

/** The order of compareByRecency for one sort of many items (each stamp parsed once). */
export function recencyComparator(): Comparator {
  return compareByKeys(RECENCY_KEYS, itemValue, memoizedInstants());
}
