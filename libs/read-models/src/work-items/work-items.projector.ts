import {
  type AgentState,
  type WorkItem,
  candidateClassOf,
  lastTriggeredAt,
  toAgentSummaryView,
  toWorkItemView,
} from '@app/domain';
import type { Projector, ProjectionInput, RowWrite } from '../projection/projector';

/** Items whose view may differ between two states: changed items, the old and new focus, items whose intents changed. */
export function affectedItemIds(before: AgentState, after: AgentState): Set<string> {
  const ids = new Set<string>();
  for (const [id] of after.work_items.changedSince(before.work_items)) ids.add(id);
  if (before.current_work_item_id !== after.current_work_item_id) {
    if (before.current_work_item_id) ids.add(before.current_work_item_id);
    if (after.current_work_item_id) ids.add(after.current_work_item_id);
  }
  for (const [, intent] of after.waiting_intents.changedSince(before.waiting_intents))
    if (intent.work_item_id) ids.add(intent.work_item_id);
  // A delivery summary shows only in its own item's view (completion report).
  for (const [, summary] of after.delivery_summaries.changedSince(before.delivery_summaries))
    ids.add(summary.work_item_id);
  return ids;
}

export function workItemRow(state: AgentState, item: WorkItem, archived = false): Record<string, unknown> {
  const view = archived ? { ...toWorkItemView(state, item), archived: true as const } : toWorkItemView(state, item);
  return {
    agent_id: item.agent_id,
    id: item.id,
    state: view.state,
    plan_status: view.plan_status,
    readiness: view.readiness,
    scheduling_state: view.scheduling_state,
    candidate_class: candidateClassOf(state, item),
    is_current: view.is_current,
    has_active_waits: view.has_active_waits,
    has_triggered_waits: view.has_triggered_waits,
    last_triggered_at: lastTriggeredAt(state, item),
    created_at: view.created_at,
    updated_at: view.updated_at,
    view,
    archived,
  };
}

const WORK_ITEM_COLUMNS = [
  'agent_id',
  'id',
  'state',
  'plan_status',
  'readiness',
  'scheduling_state',
  'candidate_class',
  'is_current',
  'has_active_waits',
  'has_triggered_waits',
  'last_triggered_at',
  'created_at',
  'updated_at',
  'view',
  'archived',
];

/** The rows of the items a WorkItemsArchived names, as they were, marked archived (they stay for reads by id). */
function archivedRows(event: ProjectionInput<AgentState>['event'], before: AgentState): RowWrite[] {
  if (event.type !== 'WorkItemsArchived') return [];
  const ids = (event.data as { work_item_ids?: unknown }).work_item_ids;
  if (!Array.isArray(ids)) return [];
  return ids
    .map((id) => before.work_items.get(String(id)))
    .filter((item): item is WorkItem => item !== undefined)
    .map((item) => ({ table: 'work_items', row: workItemRow(before, item, true) }));
}

/** work_items and the agent summary, derived from the folded agent state by the domain's views. */
export const workItemsProjector: Projector<AgentState> = {
  name: 'work_items',
  tables: [
    { name: 'work_items', key: ['agent_id', 'id'], columns: WORK_ITEM_COLUMNS },
    {
      name: 'agents',
      key: ['agent_id'],
      columns: ['agent_id', 'posture', 'current_work_item_id', 'revision', 'registered_at', 'summary'],
    },
  ],
  project({ event, before, after }: ProjectionInput<AgentState>): RowWrite[] {
    if (after.agent_id === null) return [];
    const writes: RowWrite[] = archivedRows(event, before);
    for (const id of affectedItemIds(before, after)) {
      const item = after.work_items.get(id);
      if (item) writes.push({ table: 'work_items', row: workItemRow(after, item) });
    }
    const summary = { ...toAgentSummaryView(after), revision: event.revision.toString() };
    writes.push({
      table: 'agents',
      row: {
        agent_id: after.agent_id,
        posture: after.posture,
        current_work_item_id: after.current_work_item_id,
        revision: event.revision.toString(),
        registered_at: after.registered_at,
        summary,
      },
    });
    return writes;
  },
};
