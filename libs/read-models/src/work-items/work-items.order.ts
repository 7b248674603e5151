import {
  CANDIDATE_RANKING,
  type CandidateClass,
  RECENCY_KEYS,
  type RankedClass,
  type RankField,
  type SortKey,
} from '@app/domain';

// The domain's candidate ranking (CANDIDATE_RANKING) rendered as ORDER BY over the columns of
// work_items (migration 0004), so the read model and the domain cannot drift apart:
// - the stamps are timestamptz, so they compare as instants, offsets respected, as the domain's
//   compareInstants does (SortKey in the domain's candidate-ranking.ts says where the two could part);
// - ids compare byte-wise (COLLATE "C"), the domain's code-unit order for the ASCII ids of ID_PATTERN;
// - candidate_class holds the domain's candidateClassOf, last_triggered_at its lastTriggeredAt.

const COLUMN: Record<RankField, string> = {
  last_triggered_at: 'last_triggered_at',
  updated_at: 'updated_at',
  created_at: 'created_at',
  id: 'id',
};

const nullsOf = (key: SortKey): string | null => (key.field === 'last_triggered_at' ? key.nulls : null);
const sameKey = (a: SortKey, b: SortKey): boolean =>
  a.field === b.field && a.direction === b.direction && nullsOf(a) === nullsOf(b);
const sameKeys = (a: readonly SortKey[], b: readonly SortKey[]): boolean =>
  a.length === b.length && a.every((key, i) => sameKey(key, b[i]));

/** One ORDER BY term: the key's column (or `expression` over it), its collation, direction and nulls. */
function term(key: SortKey, expression: string = COLUMN[key.field]): string {
  const collation = key.field === 'id' ? ' COLLATE "C"' : '';
  const nulls = nullsOf(key);
  return `${expression}${collation} ${key.direction.toUpperCase()}${nulls === null ? '' : ` NULLS ${nulls.toUpperCase()}`}`;
}

/** ORDER BY of a key list over work_items (no class): the recency order of the lists not in scheduler order. */
export function orderByKeys(keys: readonly SortKey[]): string {
  return keys.map((key) => term(key)).join(', ');
}

/** The keys every class ends with (`id` ascending, as the ranking declares it): ordered once, outside any CASE. */
function sharedTail(ranking: readonly RankedClass[]): SortKey[] {
  const [first, ...rest] = ranking.map((ranked) => [...ranked.keys].reverse());
  const tail: SortKey[] = [];
  for (const [i, key] of (first ?? []).entries()) {
    if (!rest.every((keys) => keys[i] !== undefined && sameKey(keys[i], key))) break;
    tail.unshift(key);
  }
  return tail;
}

const classIn = (classes: CandidateClass[]): string =>
  classes.length === 1 ? `= '${classes[0]}'` : `IN (${classes.map((c) => `'${c}'`).join(', ')})`;

/**
 * ORDER BY of a candidate ranking over work_items: the class's place in the scheduler's order,
 * then each class's own keys (a CASE per key, null for the other classes, which the first term
 * has already told apart; classes with the same keys share them), then the keys all classes end with.
 */
export function candidateOrderBy(ranking: readonly RankedClass[] = CANDIDATE_RANKING): string {
  const rank = `CASE candidate_class ${ranking.map((ranked, i) => `WHEN '${ranked.class}' THEN ${i}`).join(' ')} END ASC`;
  const tail = sharedTail(ranking);
  const groups: { classes: CandidateClass[]; keys: readonly SortKey[] }[] = [];
  for (const ranked of ranking) {
    const own = ranked.keys.slice(0, ranked.keys.length - tail.length);
    const group = groups.find((g) => sameKeys(g.keys, own));
    if (group) group.classes.push(ranked.class);
    else if (own.length > 0) groups.push({ classes: [ranked.class], keys: own });
  }
  const own = groups.flatMap((g) =>
    g.keys.map((key) => term(key, `CASE WHEN candidate_class ${classIn(g.classes)} THEN ${COLUMN[key.field]} END`)),
  );
  return [rank, ...own, ...tail.map((key) => term(key))].join(',\n  ');
}

/** The candidate ranking's ORDER BY (the `queued` and `triggered` lists). */
export const CANDIDATE_ORDER = candidateOrderBy();
/** Most recently updated first, then id (the other lists). */
export const RECENCY_ORDER = orderByKeys(RECENCY_KEYS);
