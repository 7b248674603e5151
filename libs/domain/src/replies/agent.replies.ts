import type { RegisterAgent } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import type { PickWorkItem } from '../focus/focus.commands';
import type { WorkItemPicked } from '../focus/focus.events';
import { DomainError } from '../shared/domain-error';
import type { Warning } from '../shared/warnings';
import type { CompleteWorkItem, CreateWorkItem, UpdateWorkItem } from '../work-item/work-item.commands';
import {
  reportPromotionSkippedWarnings,
  UNFINISHED_TODOS_SAMPLE_SIZE,
  unfinishedTodosWarnings,
} from '../work-item/completion-warnings';
import type { WorkItemCompleted } from '../work-item/work-item.events';
import { type AgentSummaryView, toAgentSummaryView } from '../views/agent.view';
import { workItemView, type WorkItemView } from '../views/work-item.view';

// Reply bodies of docs/api.md without `revision` (the app adds the stream revision after the append).

export type RegisterAgentReply = { agent: AgentSummaryView };
export type CreateWorkItemReply = { work_item: WorkItemView; warnings: Warning[] };
export type UpdateWorkItemReply = { work_item: WorkItemView; focus_released: boolean; warnings: Warning[] };
export type PickWorkItemReply = {
  current: WorkItemView;
  previous: WorkItemView | null;
  binding_note: string;
  warnings: Warning[];
};
export type CompleteWorkItemReply = { work_item: WorkItemView; completed_transition: boolean; warnings: Warning[] };

export { UNFINISHED_TODOS_SAMPLE_SIZE };

function viewOf(state: AgentState, workItemId: string): WorkItemView {
  const view = workItemView(state, workItemId);
  if (!view) throw new DomainError('not_found', { resource: 'work_item', work_item_id: workItemId });
  return view;
}

export function renderRegisterAgentReply(
  _command: RegisterAgent,
  _before: AgentState,
  after: AgentState,
  _newEvents: readonly AgentEvent[],
): RegisterAgentReply {
  return { agent: toAgentSummaryView(after) };
}

export function renderCreateWorkItemReply(
  command: CreateWorkItem,
  _before: AgentState,
  after: AgentState,
  _newEvents: readonly AgentEvent[],
): CreateWorkItemReply {
  return { work_item: viewOf(after, command.data.work_item_id), warnings: [] };
}

export function renderUpdateWorkItemReply(
  command: UpdateWorkItem,
  _before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): UpdateWorkItemReply {
  return {
    work_item: viewOf(after, command.data.work_item_id),
    focus_released: newEvents.some((e) => e.type === 'WorkItemFocusReleased'),
    warnings: [],
  };
}

function bindingNote(view: WorkItemView): string {
  const binding = `Work item ${view.id} is now the current focus; later tool calls in this turn are bound to it unless they name another work item.`;
  if (view.readiness === 'runnable') return binding;
  return `${binding} It is ${view.readiness}: picked for inspection only, picking does not make it runnable.`;
}

export function renderPickWorkItemReply(
  command: PickWorkItem,
  _before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): PickWorkItemReply {
  const picked = newEvents.find((e): e is WorkItemPicked => e.type === 'WorkItemPicked');
  const current = viewOf(after, command.data.work_item_id);
  const previousId = picked?.data.previous_work_item_id ?? null;
  return {
    current,
    previous: previousId === null ? null : workItemView(after, previousId),
    binding_note: bindingNote(current),
    warnings: picked ? [...picked.data.warnings] : [],
  };
}

function unfinishedTodosWarning(event: WorkItemCompleted, before: AgentState): Warning[] {
  if (!event.data.completed_with_unfinished_todos) return [];
  return unfinishedTodosWarnings(event.data, before.work_items.get(event.data.work_item_id)?.todo_list ?? []);
}

export function renderCompleteWorkItemReply(
  command: CompleteWorkItem,
  before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): CompleteWorkItemReply {
  const completed = newEvents.find((e): e is WorkItemCompleted => e.type === 'WorkItemCompleted');
  return {
    work_item: viewOf(after, command.data.work_item_id),
    completed_transition: completed !== undefined,
    warnings: completed
      ? [
          ...unfinishedTodosWarning(completed, before),
          ...reportPromotionSkippedWarnings(completed.data, before.open_turn_id),
        ]
      : [],
  };
}
