import { CANDIDATE_RANKING, type CandidateClass, type RankedClass, type SortKey } from '../views/candidate-ranking';

/*
 * What the pure scheduler takes besides the state and `now` (docs/decisions/0037): one value
 * object. The runtime always decides with DEFAULT_SCHEDULER_SETTINGS; `agent-runtime what-if`
 * evaluates recorded decision points with others.
 */

/** Rung 8: whether due rechecks are surfaced, and how long after `recheck_at` they come due. */
export type RecheckPolicy = { readonly enabled: boolean; readonly delay_ms: number };

export type SchedulerSettings = {
  /**
   * The candidate ranking: the classes in order and each class's sort keys. The relative order
   * of current_runnable, triggered_blocked, queued_runnable and blocked orders rungs 5 to 8
   * (continue_active, triggered_review, queued_available, work_item_recheck); the keys order the
   * items inside rungs 6 and 7, the operator items of rung 9 and the blocked items of rung 10.
   */
  readonly ranking: readonly RankedClass[];
  /**
   * Rung 2's lease: null for each turn's own (the TTL its host asked for); a number of
   * milliseconds for every open turn, counted from its last heartbeat (or its start).
   */
  readonly lease_ttl_ms: number | null;
  readonly recheck: RecheckPolicy;
};

/** The settings the runtime decides with: the declared ranking, each turn's own lease, rechecks at recheck_at. */
export const DEFAULT_SCHEDULER_SETTINGS: SchedulerSettings = Object.freeze({
  ranking: CANDIDATE_RANKING,
  lease_ttl_ms: null,
  recheck: Object.freeze({ enabled: true, delay_ms: 0 }),
});

/** The work-queue rungs (5 to 8) and the class whose position in the ranking places each. */
export type WorkQueueRung = 'continue_active' | 'triggered_review' | 'queued_available' | 'work_item_recheck';

export const WORK_QUEUE_RUNG_CLASS: Readonly<Record<WorkQueueRung, CandidateClass>> = {
  continue_active: 'current_runnable',
  triggered_review: 'triggered_blocked',
  queued_available: 'queued_runnable',
  work_item_recheck: 'blocked',
};

const WORK_QUEUE_RUNG_NUMBER: Readonly<Record<WorkQueueRung, number>> = {
  continue_active: 5,
  triggered_review: 6,
  queued_available: 7,
  work_item_recheck: 8,
};

/** What a decision needs of the settings, computed once per settings object. */
export type CompiledSettings = {
  readonly settings: SchedulerSettings;
  /** Rungs 5 to 8 in the order the ranking places them. */
  readonly work_queue_order: readonly WorkQueueRung[];
  readonly keys: Readonly<Record<CandidateClass, readonly SortKey[]>>;
  /** True where a class's keys are the declared ones (the scheduling index already keeps their order). */
  readonly declared_keys: Readonly<Record<CandidateClass, boolean>>;
};

const sameKeys = (a: readonly SortKey[], b: readonly SortKey[]): boolean => JSON.stringify(a) === JSON.stringify(b);

function compile(settings: SchedulerSettings): CompiledSettings {
  const position = new Map(settings.ranking.map((ranked, index) => [ranked.class, index]));
  const rank = (rung: WorkQueueRung) => position.get(WORK_QUEUE_RUNG_CLASS[rung]) ?? 0;
  const work_queue_order = (Object.keys(WORK_QUEUE_RUNG_CLASS) as WorkQueueRung[]).sort(
    (a, b) => rank(a) - rank(b) || WORK_QUEUE_RUNG_NUMBER[a] - WORK_QUEUE_RUNG_NUMBER[b],
  );
  const keyOf = (ranking: readonly RankedClass[]) =>
    Object.fromEntries(ranking.map((ranked) => [ranked.class, ranked.keys])) as Record<CandidateClass, SortKey[]>;
  const keys = keyOf(settings.ranking);
  const declared = keyOf(CANDIDATE_RANKING);
  const declared_keys = Object.fromEntries(
    CANDIDATE_RANKING.map((ranked) => [ranked.class, sameKeys(keys[ranked.class] ?? [], declared[ranked.class])]),
  ) as Record<CandidateClass, boolean>;
  return { settings, work_queue_order, keys: { ...declared, ...keys }, declared_keys };
}

const compiled = new WeakMap<SchedulerSettings, CompiledSettings>();

/** The compiled form of a settings object (cached: the runtime's default is compiled once). */
export function compiledSettings(settings: SchedulerSettings): CompiledSettings {
  let found = compiled.get(settings);
  if (found === undefined) {
    found = compile(settings);
    compiled.set(settings, found);
  }
  return found;
}

/** The rung number of a work-queue rung in the docs' ladder (5 to 8), whatever the order the settings give. */
export const workQueueRungNumber = (rung: WorkQueueRung): number => WORK_QUEUE_RUNG_NUMBER[rung];
