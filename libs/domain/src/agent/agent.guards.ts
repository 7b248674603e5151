import { DomainError } from '../shared/domain-error';
import type { OpenWorkItem, WorkItem } from '../work-item/work-item.state';
import type { AgentState } from './agent.state';

/** Every command but RegisterAgent needs a registered agent; returns its id. */
export function requireRegistered(state: AgentState): string {
  if (state.agent_id === null) throw new DomainError('not_found', { resource: 'agent' }, 'agent not registered');
  return state.agent_id;
}

export function requireWorkItem(state: AgentState, workItemId: string): WorkItem {
  const item = state.work_items[workItemId];
  if (!item) {
    throw new DomainError('not_found', { resource: 'work_item', work_item_id: workItemId }, `work item ${workItemId} not found`);
  }
  return item;
}

/** Refuses with `invariant_violated` when the item is completed. */
export function requireOpen(item: WorkItem, action: string): OpenWorkItem {
  if (item.state === 'completed') {
    throw new DomainError(
      'invariant_violated',
      { rule: 'work_item_completed', work_item_id: item.id, action },
      `cannot ${action} completed work item ${item.id}`,
    );
  }
  return item;
}
