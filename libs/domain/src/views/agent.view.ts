import type { AgentState, Posture } from '../agent/agent.state';
import { DomainError } from '../shared/domain-error';
import { countWorkItems, WORK_ITEM_LIST_FILTERS, type WorkItemListFilter } from './work-item-list';

/** GET /agents/{id}: posture, focus and work item counts per list filter. */
export type AgentSummaryView = {
  agent_id: string;
  posture: Posture;
  current_work_item_id: string | null;
  registered_at: string | null;
  work_item_counts: Record<WorkItemListFilter, number>;
};

export function toAgentSummaryView(state: AgentState): AgentSummaryView {
  if (state.agent_id === null) throw new DomainError('not_found', { resource: 'agent' }, 'agent not registered');
  const counts = Object.fromEntries(WORK_ITEM_LIST_FILTERS.map((f) => [f, countWorkItems(state, f)]));
  return {
    agent_id: state.agent_id,
    posture: state.posture,
    current_work_item_id: state.current_work_item_id,
    registered_at: state.registered_at,
    work_item_counts: counts as Record<WorkItemListFilter, number>,
  };
}
