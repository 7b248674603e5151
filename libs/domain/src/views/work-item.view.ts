import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import type { PlanArtifact, PlanStatus, TodoItem, WorkItem } from '../work-item/work-item.state';
import type { CandidateClass } from './candidate-ranking';
import { candidateClassOf, isCurrent } from './candidates';
import {
  activeIntentsFor,
  isTriggered,
  type Readiness,
  readinessFromSchedulingState,
  type SchedulingState,
  schedulingStateOf,
} from './scheduling';
import { currentTodo } from './todo';
import { compareIntents, toWaitingIntentView, type WaitingIntentView } from './waiting-intent.view';

export type CompletionReport = {
  text: string;
  source: 'result_summary' | 'delivery_summary';
  delivery_summary_id?: string;
};

/** The work item view of docs/api.md. */
export type WorkItemView = {
  id: string;
  agent_id: string;
  objective: string;
  state: WorkItem['state'];
  plan_status: PlanStatus;
  blocked_by: string | null;
  recheck_at: string | null;
  revision: number;
  todo_list: TodoItem[];
  current_todo: TodoItem | null;
  plan_artifact: PlanArtifact;
  readiness: Readiness;
  scheduling_state: SchedulingState;
  candidate_class: CandidateClass;
  is_current: boolean;
  has_active_waits: boolean;
  has_triggered_waits: boolean;
  waiting_intents: WaitingIntentView[];
  result_summary: string | null;
  completion_report: CompletionReport | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** Present (true) only on an archived item, which only the read model still holds (WorkItemsArchived). */
  archived?: true;
};

/** Promoted `result_summary` first, else the newest delivery summary, else null (completed items only). */
export function completionReportOf(state: AgentState, item: WorkItem): CompletionReport | null {
  if (item.state !== 'completed') return null;
  const summaries = state.delivery_summaries
    .values()
    .filter((summary) => summary.work_item_id === item.id && summary.text.trim() !== '')
    .sort((a, b) => compareInstants(b.created_at, a.created_at) || (a.id < b.id ? 1 : -1));
  if (item.result_summary !== null) {
    // The promotion that set result_summary also recorded a delivery summary with the same text.
    const promoted = summaries.find((summary) => summary.text === item.result_summary);
    return {
      text: item.result_summary,
      source: 'result_summary',
      ...(promoted && { delivery_summary_id: promoted.id }),
    };
  }
  const newest = summaries[0];
  return newest ? { text: newest.text, source: 'delivery_summary', delivery_summary_id: newest.id } : null;
}

export function toWorkItemView(state: AgentState, item: WorkItem): WorkItemView {
  const scheduling = schedulingStateOf(state, item);
  const intents = activeIntentsFor(state, item.id);
  return {
    id: item.id,
    agent_id: item.agent_id,
    objective: item.objective,
    state: item.state,
    plan_status: item.plan_status,
    blocked_by: item.blocked_by,
    recheck_at: item.recheck_at,
    revision: item.revision,
    todo_list: item.todo_list.map((todo) => ({ ...todo })),
    current_todo: currentTodo(item.todo_list),
    plan_artifact: { ...item.plan_artifact },
    readiness: readinessFromSchedulingState(scheduling),
    scheduling_state: scheduling,
    candidate_class: candidateClassOf(state, item),
    is_current: isCurrent(state, item),
    has_active_waits: intents.length > 0,
    has_triggered_waits: intents.some(isTriggered),
    waiting_intents: intents.sort(compareIntents).map(toWaitingIntentView),
    result_summary: item.result_summary,
    completion_report: completionReportOf(state, item),
    created_at: item.created_at,
    updated_at: item.updated_at,
    completed_at: item.completed_at,
  };
}

/** The view of one item by id, or null when the agent has no such item. */
export function workItemView(state: AgentState, workItemId: string): WorkItemView | null {
  const item = state.work_items.get(workItemId);
  return item ? toWorkItemView(state, item) : null;
}
