/**
 * What the scheduler would otherwise find by scanning every record, kept up to date by evolve
 * (as `queue` is for messages): an agent may hold thousands of work items and a long history
 * of intents, and a decision must not cost a pass over all of them. Derived only: no event
 * writes it, `schedulingIndexOf` (scheduling-index.upkeep.ts) rebuilds it from the records, and a spec checks after every event of
 * random histories that evolve's incremental upkeep equals that rebuild.
 */
export type SchedulingIndex = {
  /** Ids of the active waiting intents, oldest first (created_at, then id). */
  active_intents: string[];
  /**
   * Ids of the open work items whose readiness is runnable (the focus included), in queued
   * order: least recently updated first, then oldest created, then id.
   */
  runnable: string[];
  /** Ids of the open work items with a recheck_at, soonest first (then id). */
  rechecks: string[];
};

export const emptyIndex = (): SchedulingIndex => ({ active_intents: [], runnable: [], rechecks: [] });
