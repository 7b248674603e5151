import { DomainError } from '../shared/domain-error';
import type { RecordMap } from '../shared/record-map';
import type { OpenWorkItem, WorkItem } from '../work-item/work-item.state';
import type { AgentState } from './agent.state';

/** Every command but RegisterAgent needs a registered agent; returns its id. */
export function requireRegistered(state: AgentState): string {
  if (state.agent_id === null) throw new DomainError('not_found', { resource: 'agent' }, 'agent not registered');
  return state.agent_id;
}

export function requireWorkItem(state: AgentState, workItemId: string): WorkItem {
  const item = state.work_items.get(workItemId);
  if (!item) {
    throw new DomainError(
      'not_found',
      { resource: 'work_item', work_item_id: workItemId },
      `work item ${workItemId} not found`,
    );
  }
  return item;
}

/**
 * After stop, the running turn may only heartbeat and post its terminal (docs/domain-contract.md §4):
 * a new round (or an interjection) is refused with `agent_stopped`.
 */
export function requireNotStopped(state: AgentState, action: string, details: Record<string, unknown> = {}): void {
  if (state.posture !== 'stopped') return;
  throw new DomainError(
    'agent_stopped',
    { rule: 'agent_stopped', posture: state.posture, action, ...details },
    `the agent is stopped: cannot ${action}`,
  );
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

/** The record `id` of a keyed collection (tasks, timers, messages, intents), or `not_found` naming the resource. */
export function requireRecord<T>(records: RecordMap<T>, id: string, resource: string): T {
  const record = records.get(id);
  if (record === undefined)
    throw new DomainError('not_found', { resource, [`${resource}_id`]: id }, `${resource} ${id} not found`);
  return record;
}

/** Ids are inputs (the app generates them): a new record may not reuse one (`already_exists`). */
export function requireAbsent(records: RecordMap<unknown>, id: string, resource: string): void {
  if (records.has(id)) {
    throw new DomainError('already_exists', { resource, [`${resource}_id`]: id }, `${resource} ${id} already exists`);
  }
}
