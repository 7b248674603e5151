import type { CommandMeta } from '../shared/command-meta';
import type { PlanArtifact, PlanStatus, TodoItem } from './work-item.state';

export type CreateWorkItem = {
  type: 'CreateWorkItem';
  data: {
    /** Always supplied: the app generates `work_<32 hex>` when the client gave none. */
    work_item_id: string;
    objective: string;
    plan_status?: PlanStatus;
    todo_list?: TodoItem[];
    /** Descriptor of the plan file the app wrote (seed text or empty). */
    plan_artifact: PlanArtifact;
  };
  meta: CommandMeta;
};

export type UpdateWorkItem = {
  type: 'UpdateWorkItem';
  data: {
    work_item_id: string;
    objective?: string;
    plan_status?: PlanStatus;
    /** Replaces the whole list. */
    todo_list?: TodoItem[];
    /** null clears the blocker (and, with the waiting plane, the item's active intents). */
    blocked_by?: string | null;
    recheck_at?: string | null;
    /** Fresh descriptor read from the file; recorded as PlanArtifactRefreshed when it differs. */
    plan_artifact?: PlanArtifact;
  };
  meta: CommandMeta;
};

export type CompleteWorkItem = {
  type: 'CompleteWorkItem';
  data: { work_item_id: string; round_id?: string };
  meta: CommandMeta;
};

export type WorkItemCommand = CreateWorkItem | UpdateWorkItem | CompleteWorkItem;
