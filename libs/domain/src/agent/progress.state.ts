/**
 * What the reminders (docs/domain-contract.md §2, Reminders) need to know of the agent's
 * progress, folded from its events: nothing here is stored in an event. The round clock counts
 * every AssistantRoundRecorded of the agent; the marks say at which tick of that clock a thing
 * last changed.
 */
export type ProgressState = {
  /** AssistantRoundRecorded events folded so far (the agent's round clock). */
  rounds: number;
  /** The round clock at the newest work-item mutation (created, updated, plan refreshed, completed, picked, released). */
  work_item_mutation_round: number;
  /** The newest turn started (open or closed), null before the first. */
  last_turn_id: string | null;
  /** Per open item: each `in_progress` todo text -> the round clock when it became `in_progress` as it is now. */
  in_progress_since: Record<string, Record<string, number>>;
  /** Items completed with unfinished todos -> the agent's turn_index at the completion (pruned when turns start). */
  completed_unfinished: Record<string, number>;
};

export function initialProgress(): ProgressState {
  return {
    rounds: 0,
    work_item_mutation_round: 0,
    last_turn_id: null,
    in_progress_since: {},
    completed_unfinished: {},
  };
}

/** A record's own value (texts and ids are data: `constructor` is a key like any other). */
export const own = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * An empty record to be keyed by data (a todo's text): without a prototype, which the engine keeps
 * as a hash table from the start. A plain object given a new key gets a new hidden class, kept
 * until a full collection: a todo's text is new on most updates, so every command made one (in
 * figure 3's paced runs, a fifth of what the commands left alive at a scavenge). JSON and the
 * record's readers (`own`, Object.entries) see no difference.
 */
export const dictionary = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
