// Original file: libs/contracts/proto/agent_runtime.proto

import type { TodoItem as _agent_runtime_v1_TodoItem, TodoItem__Output as _agent_runtime_v1_TodoItem__Output } from '../../agent_runtime/v1/TodoItem';
import type { PlanArtifact as _agent_runtime_v1_PlanArtifact, PlanArtifact__Output as _agent_runtime_v1_PlanArtifact__Output } from '../../agent_runtime/v1/PlanArtifact';
import type { WaitingIntent as _agent_runtime_v1_WaitingIntent, WaitingIntent__Output as _agent_runtime_v1_WaitingIntent__Output } from '../../agent_runtime/v1/WaitingIntent';
import type { CompletionReport as _agent_runtime_v1_CompletionReport, CompletionReport__Output as _agent_runtime_v1_CompletionReport__Output } from '../../agent_runtime/v1/CompletionReport';

/**
 * The work item view of docs/api.md, field for field.
 */
export interface WorkItemView {
  'id'?: (string);
  'agent_id'?: (string);
  'objective'?: (string);
  /**
   * "open" | "completed"
   */
  'state'?: (string);
  /**
   * "draft" | "ready" | "needs_input"
   */
  'plan_status'?: (string);
  'blocked_by'?: (string);
  'recheck_at'?: (string);
  /**
   * The item's own revision (a JSON number in HTTP), not the agent stream revision.
   */
  'revision'?: (number);
  'todo_list'?: (_agent_runtime_v1_TodoItem)[];
  /**
   * Absent when no todo is in progress or pending (HTTP null).
   */
  'current_todo'?: (_agent_runtime_v1_TodoItem | null);
  'plan_artifact'?: (_agent_runtime_v1_PlanArtifact | null);
  /**
   * "runnable" | "waiting_for_operator" | "blocked" | "completed"
   */
  'readiness'?: (string);
  /**
   * "runnable" | "waiting_operator" | "waiting_task" | "waiting_timer" | "waiting_external"
   * | "blocked" | "completed"
   */
  'scheduling_state'?: (string);
  /**
   * "current_runnable" | "completed_recent" | "triggered_blocked" | "queued_runnable"
   * | "waiting_for_operator" | "blocked"
   */
  'candidate_class'?: (string);
  'is_current'?: (boolean);
  'has_active_waits'?: (boolean);
  'has_triggered_waits'?: (boolean);
  'waiting_intents'?: (_agent_runtime_v1_WaitingIntent)[];
  'result_summary'?: (string);
  /**
   * Absent unless the item is completed and has a report (HTTP null).
   */
  'completion_report'?: (_agent_runtime_v1_CompletionReport | null);
  'created_at'?: (string);
  'updated_at'?: (string);
  'completed_at'?: (string);
  /**
   * Present (true) only on an archived item (read by id or with filter "archived").
   */
  'archived'?: (boolean);
  '_blocked_by'?: "blocked_by";
  '_recheck_at'?: "recheck_at";
  '_result_summary'?: "result_summary";
  '_completed_at'?: "completed_at";
  '_archived'?: "archived";
}

/**
 * The work item view of docs/api.md, field for field.
 */
export interface WorkItemView__Output {
  'id': (string);
  'agent_id': (string);
  'objective': (string);
  /**
   * "open" | "completed"
   */
  'state': (string);
  /**
   * "draft" | "ready" | "needs_input"
   */
  'plan_status': (string);
  'blocked_by'?: (string);
  'recheck_at'?: (string);
  /**
   * The item's own revision (a JSON number in HTTP), not the agent stream revision.
   */
  'revision': (number);
  'todo_list': (_agent_runtime_v1_TodoItem__Output)[];
  /**
   * Absent when no todo is in progress or pending (HTTP null).
   */
  'current_todo': (_agent_runtime_v1_TodoItem__Output | null);
  'plan_artifact': (_agent_runtime_v1_PlanArtifact__Output | null);
  /**
   * "runnable" | "waiting_for_operator" | "blocked" | "completed"
   */
  'readiness': (string);
  /**
   * "runnable" | "waiting_operator" | "waiting_task" | "waiting_timer" | "waiting_external"
   * | "blocked" | "completed"
   */
  'scheduling_state': (string);
  /**
   * "current_runnable" | "completed_recent" | "triggered_blocked" | "queued_runnable"
   * | "waiting_for_operator" | "blocked"
   */
  'candidate_class': (string);
  'is_current': (boolean);
  'has_active_waits': (boolean);
  'has_triggered_waits': (boolean);
  'waiting_intents': (_agent_runtime_v1_WaitingIntent__Output)[];
  'result_summary'?: (string);
  /**
   * Absent unless the item is completed and has a report (HTTP null).
   */
  'completion_report': (_agent_runtime_v1_CompletionReport__Output | null);
  'created_at': (string);
  'updated_at': (string);
  'completed_at'?: (string);
  /**
   * Present (true) only on an archived item (read by id or with filter "archived").
   */
  'archived'?: (boolean);
  '_blocked_by'?: "blocked_by";
  '_recheck_at'?: "recheck_at";
  '_result_summary'?: "result_summary";
  '_completed_at'?: "completed_at";
  '_archived'?: "archived";
}
