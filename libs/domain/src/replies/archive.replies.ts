import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import type { ArchiveWorkItems } from '../archive/archive.commands';
import type { ArchivedCounts } from '../archive/archive.events';

// Reply body of ArchiveWorkItems without `revision`/`position` (the app adds them).

export type ArchiveWorkItemsReply = {
  agent_id: string;
  completed_before: string;
  /** False when nothing was older than the cut-off (nothing recorded). */
  archived: boolean;
  work_item_ids: string[];
  counts: ArchivedCounts;
};

const NONE: ArchivedCounts = {
  messages: 0,
  turns: 0,
  rounds: 0,
  briefs: 0,
  delivery_summaries: 0,
  emitted_tick_keys: 0,
  tasks: 0,
  timers: 0,
  waiting_intents: 0,
};

export function renderArchiveWorkItemsReply(
  command: ArchiveWorkItems,
  _before: AgentState,
  after: AgentState,
  events: readonly AgentEvent[],
): ArchiveWorkItemsReply {
  const event = events.find((e) => e.type === 'WorkItemsArchived');
  if (event?.type === 'WorkItemsArchived') {
    const { agent_id, completed_before, work_item_ids, counts } = event.data;
    return { agent_id, completed_before, archived: true, work_item_ids: [...work_item_ids], counts: { ...counts } };
  }
  return {
    agent_id: after.agent_id ?? '',
    completed_before: String(command.data.completed_before),
    archived: false,
    work_item_ids: [],
    counts: { ...NONE },
  };
}
