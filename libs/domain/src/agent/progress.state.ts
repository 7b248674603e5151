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
