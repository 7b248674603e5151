import { eventGuard } from '../shared/event-guard';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

/** How many records of each collection left the live state (audit; evolve derives them again from the cut-off). */
export type ArchivedCounts = {
  messages: number;
  turns: number;
  rounds: number;
  briefs: number;
  delivery_summaries: number;
  emitted_tick_keys: number;
  tasks: number;
  timers: number;
  waiting_intents: number;
};

/**
 * Completed work items (named) and the finished records older than `completed_before` leave
 * the live state. The stream keeps every event before it, so replay and audit are unchanged;
 * the read models keep the rows (work items are marked archived).
 */
export type WorkItemsArchived = {
  type: 'WorkItemsArchived';
  data: {
    agent_id: string;
    completed_before: string;
    work_item_ids: string[];
    counts: ArchivedCounts;
    at: string;
  };
};

export type ArchiveEvent = WorkItemsArchived;

export const isArchiveEvent = eventGuard<ArchiveEvent>(['WorkItemsArchived']);
