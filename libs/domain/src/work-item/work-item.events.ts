import type { PlanArtifact, PlanStatus, TodoItem } from './work-item.state';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type WorkItemCreated = {
  type: 'WorkItemCreated';
  data: {
    agent_id: string;
    work_item_id: string;
    objective: string;
    plan_status: PlanStatus;
    todo_list: TodoItem[];
    plan_artifact: PlanArtifact;
    revision: number;
    at: string;
  };
};

/** Carries only the fields that changed, plus the item's new revision. */
export type WorkItemUpdated = {
  type: 'WorkItemUpdated';
  data: {
    agent_id: string;
    work_item_id: string;
    objective?: string;
    plan_status?: PlanStatus;
    todo_list?: TodoItem[];
    /** null: the blocker was cleared. */
    blocked_by?: string | null;
    recheck_at?: string | null;
    revision: number;
    at: string;
  };
};

export type WorkItemCompleted = {
  type: 'WorkItemCompleted';
  data: {
    agent_id: string;
    work_item_id: string;
    round_id: string | null;
    completed_with_unfinished_todos: boolean;
    unfinished_todo_count: number;
    pending_todo_count: number;
    in_progress_todo_count: number;
    revision: number;
    at: string;
    /**
     * Present only when the completion ran inside a model turn without an open round to name
     * (no `round_id`, or a round that is closed or unknown): its report cannot be promoted.
     */
    report_promotion?: 'skipped_no_round';
  };
};

/** A write command saw a plan file that differs from the stored descriptor. */
export type PlanArtifactRefreshed = {
  type: 'PlanArtifactRefreshed';
  data: {
    agent_id: string;
    work_item_id: string;
    plan_artifact: PlanArtifact;
    previous_hash: string;
    revision: number;
    at: string;
  };
};

export type WorkItemEvent = WorkItemCreated | WorkItemUpdated | WorkItemCompleted | PlanArtifactRefreshed;

export const WORK_ITEM_EVENT_TYPES: ReadonlySet<string> = new Set<WorkItemEvent['type']>([
  'WorkItemCreated',
  'WorkItemUpdated',
  'WorkItemCompleted',
  'PlanArtifactRefreshed',
]);

export function isWorkItemEvent(event: { type: string }): event is WorkItemEvent {
  return WORK_ITEM_EVENT_TYPES.has(event.type);
}
