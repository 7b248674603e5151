import type { AgentSummaryView, CompletionReport, TodoItem, WaitingIntentView, Warning, WorkItemView } from '@app/domain';
import type {
  AgentSummaryMessage, CompletionReportMessage, TodoItemMessage, WaitingIntentMessage, WarningMessage, WorkItemViewMessage,
} from '@app/contracts';
import { bigintReplacer } from '@app/platform';

/*
 * Domain views -> agent_runtime.proto messages. Same fields and literals as the HTTP JSON;
 * HTTP's null becomes an absent field, revisions stay decimal strings.
 */

/** null -> absent (proto3 `optional` / message presence). */
export const absentIfNull = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** `{kind, message, ...extras}` -> `{kind, message, details_json?}` with the extras as one JSON object. */
export function toWarningMessages(warnings: readonly Warning[] | undefined): WarningMessage[] {
  return (warnings ?? []).map(({ kind, message, ...extras }) =>
    Object.keys(extras).length === 0 ? { kind, message } : { kind, message, details_json: JSON.stringify(extras, bigintReplacer) },
  );
}

function toTodo(todo: TodoItem): TodoItemMessage {
  return { text: todo.text, state: todo.state };
}

export function toWaitingIntent(intent: WaitingIntentView): WaitingIntentMessage {
  return {
    id: intent.id,
    scope: intent.scope,
    work_item_id: absentIfNull(intent.work_item_id),
    wake: intent.wake,
    reason: intent.reason,
    source: absentIfNull(intent.source),
    resource: absentIfNull(intent.resource),
    condition: absentIfNull(intent.condition),
    fire_at: absentIfNull(intent.fire_at),
    delivery_mode: intent.delivery_mode,
    status: intent.status,
    trigger_count: intent.trigger_count,
    last_triggered_at: absentIfNull(intent.last_triggered_at),
    triggered: intent.triggered,
    created_at: intent.created_at,
    updated_at: intent.updated_at,
    timer_id: absentIfNull(intent.timer_id),
    last_trigger: intent.last_trigger === null
      ? undefined
      : { source: intent.last_trigger.source, event_id: absentIfNull(intent.last_trigger.event_id), via: intent.last_trigger.via },
    ended_at: absentIfNull(intent.ended_at),
    end_reason: absentIfNull(intent.end_reason),
    has_callback_token: intent.has_callback_token,
  };
}

function toCompletionReport(report: CompletionReport | null): CompletionReportMessage | undefined {
  return report === null ? undefined : { text: report.text, source: report.source, delivery_summary_id: report.delivery_summary_id };
}

export function toWorkItemMessage(view: WorkItemView): WorkItemViewMessage {
  const plan = view.plan_artifact;
  return {
    id: view.id,
    agent_id: view.agent_id,
    objective: view.objective,
    state: view.state,
    plan_status: view.plan_status,
    blocked_by: absentIfNull(view.blocked_by),
    recheck_at: absentIfNull(view.recheck_at),
    revision: view.revision,
    todo_list: view.todo_list.map(toTodo),
    current_todo: view.current_todo === null ? undefined : toTodo(view.current_todo),
    plan_artifact: {
      path: plan.path,
      relative_path: plan.relative_path,
      hash: plan.hash,
      byte_size: plan.byte_size,
      updated_at: plan.updated_at,
      preview: plan.preview,
      preview_complete: plan.preview_complete,
    },
    readiness: view.readiness,
    scheduling_state: view.scheduling_state,
    candidate_class: view.candidate_class,
    is_current: view.is_current,
    has_active_waits: view.has_active_waits,
    has_triggered_waits: view.has_triggered_waits,
    waiting_intents: view.waiting_intents.map(toWaitingIntent),
    result_summary: absentIfNull(view.result_summary),
    completion_report: toCompletionReport(view.completion_report),
    created_at: view.created_at,
    updated_at: view.updated_at,
    completed_at: absentIfNull(view.completed_at),
  };
}

/** The agent summary; `revision` only where the read model reports it (GetAgent). */
export function toAgentSummaryMessage(summary: AgentSummaryView & { revision?: string | null }): AgentSummaryMessage {
  const counts = summary.work_item_counts;
  return {
    agent_id: summary.agent_id,
    posture: summary.posture,
    current_work_item_id: absentIfNull(summary.current_work_item_id),
    registered_at: absentIfNull(summary.registered_at),
    work_item_counts: {
      all: counts.all, open: counts.open, completed: counts.completed, current: counts.current, queued: counts.queued,
      blocked: counts.blocked, waiting_for_operator: counts.waiting_for_operator, runnable: counts.runnable, triggered: counts.triggered,
    },
    revision: absentIfNull(summary.revision),
  };
}

/** A command reply's stream revision: always set after a successful command (null only for a stream never written). */
export function revisionOf(reply: { revision: string | null }): string {
  return reply.revision ?? '';
}
