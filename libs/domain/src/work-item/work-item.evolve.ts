import { changeRecord, putRecord } from '../agent/agent.records';
import type { AgentState } from '../agent/agent.state';
import type {
  PlanArtifactRefreshed,
  WorkItemCompleted,
  WorkItemCreated,
  WorkItemEvent,
  WorkItemUpdated,
} from './work-item.events';
import type { CompletedWorkItem, WorkItem } from './work-item.state';

function created({ data }: WorkItemCreated): WorkItem {
  return {
    id: data.work_item_id,
    agent_id: data.agent_id,
    objective: data.objective,
    state: 'open',
    plan_status: data.plan_status,
    plan_artifact: data.plan_artifact,
    todo_list: data.todo_list,
    blocked_by: null,
    recheck_at: null,
    result_summary: null,
    revision: data.revision,
    created_at: data.at,
    updated_at: data.at,
    completed_at: null,
  };
}

function updated(item: WorkItem, { data }: WorkItemUpdated): WorkItem {
  return {
    ...item,
    ...(data.objective !== undefined && { objective: data.objective }),
    ...(data.plan_status !== undefined && { plan_status: data.plan_status }),
    ...(data.todo_list !== undefined && { todo_list: data.todo_list }),
    ...(data.blocked_by !== undefined && { blocked_by: data.blocked_by }),
    ...(data.recheck_at !== undefined && { recheck_at: data.recheck_at }),
    revision: data.revision,
    updated_at: data.at,
  };
}

function completed(item: WorkItem, { data }: WorkItemCompleted): CompletedWorkItem {
  return {
    ...item,
    state: 'completed',
    completed_at: data.at,
    blocked_by: null,
    recheck_at: null,
    revision: data.revision,
    updated_at: data.at,
  };
}

function refreshed(item: WorkItem, { data }: PlanArtifactRefreshed): WorkItem {
  return { ...item, plan_artifact: data.plan_artifact, revision: data.revision, updated_at: data.at };
}

/** Applies `change` to one existing item; events about unknown items leave the state as it is. */
function withItem(state: AgentState, id: string, change: (item: WorkItem) => WorkItem): AgentState {
  return changeRecord(state, 'work_items', id, change);
}

export function evolveWorkItem(state: AgentState, event: WorkItemEvent): AgentState {
  switch (event.type) {
    case 'WorkItemCreated':
      return putRecord(state, 'work_items', event.data.work_item_id, created(event));
    case 'WorkItemUpdated':
      return withItem(state, event.data.work_item_id, (item) => updated(item, event));
    case 'WorkItemCompleted':
      return withItem(state, event.data.work_item_id, (item) => completed(item, event));
    case 'PlanArtifactRefreshed':
      return withItem(state, event.data.work_item_id, (item) => refreshed(item, event));
  }
}
