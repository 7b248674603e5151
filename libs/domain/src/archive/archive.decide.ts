import { requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { requireTimestamp } from '../shared/validation';
import type { ArchiveWorkItems } from './archive.commands';
import type { WorkItemsArchived } from './archive.events';
import { archiveSelection, countsOf, isEmptySelection } from './archive.selection';

/**
 * ArchiveWorkItems: one WorkItemsArchived naming the completed items older than the cut-off
 * (and counting the other finished records that leave with them); nothing when nothing would
 * leave, so a repeat, or the automatic policy run again, records nothing.
 */
export function decideArchiveWorkItems(command: ArchiveWorkItems, state: AgentState): WorkItemsArchived[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const cutOff = requireTimestamp(command.data?.completed_before, 'completed_before');
  const selection = archiveSelection(state, cutOff);
  if (isEmptySelection(selection)) return [];
  return [
    {
      type: 'WorkItemsArchived',
      data: {
        agent_id: agentId,
        completed_before: cutOff,
        work_item_ids: selection.work_item_ids,
        counts: countsOf(selection),
        at: now,
      },
    },
  ];
}
