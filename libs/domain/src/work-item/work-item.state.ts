/** NOTE: stored format. These literals appear in events and read models. */
export type PlanStatus = 'draft' | 'ready' | 'needs_input';
export const PLAN_STATUSES: readonly PlanStatus[] = ['draft', 'ready', 'needs_input'];

export type TodoState = 'pending' | 'in_progress' | 'completed';
export const TODO_STATES: readonly TodoState[] = ['pending', 'in_progress', 'completed'];

export type TodoItem = { text: string; state: TodoState };

/**
 * Descriptor of the plan file; the body itself never enters the domain. Nothing in it is
 * machine-specific: the file is named relative to the agent's home (`work-items/<id>/plan.md`);
 * the application shows the absolute path under its own AGENT_HOME.
 */
export type PlanArtifact = {
  relative_path: string;
  /** `sha256:<hex>` of the file's bytes. */
  hash: string;
  byte_size: number;
  updated_at: string;
  preview: string;
  preview_complete: boolean;
};

type WorkItemFields = {
  id: string;
  agent_id: string;
  objective: string;
  plan_status: PlanStatus;
  plan_artifact: PlanArtifact;
  todo_list: TodoItem[];
  blocked_by: string | null;
  recheck_at: string | null;
  /** The canonical completion report; set only by report promotion (turns slice). */
  result_summary: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
};

export type OpenWorkItem = WorkItemFields & { state: 'open'; completed_at: null };
export type CompletedWorkItem = WorkItemFields & { state: 'completed'; completed_at: string };

/** A work item, discriminated on its lifecycle `state` (the only two lifecycle states). */
export type WorkItem = OpenWorkItem | CompletedWorkItem;
