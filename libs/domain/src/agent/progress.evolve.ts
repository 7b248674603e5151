import type { AnyEvent } from './agent.events';
import type { AgentState } from './agent.state';
import type { TodoItem } from '../work-item/work-item.state';
import { dictionary, initialProgress, own, type ProgressState } from './progress.state';

// How evolve keeps the progress marks (progress.state.ts) up to date.

const MUTATIONS: ReadonlySet<string> = new Set([
  'WorkItemCreated',
  'WorkItemUpdated',
  'PlanArtifactRefreshed',
  'WorkItemCompleted',
  'WorkItemPicked',
  'WorkItemFocusReleased',
]);

/** The marks of a new todo list: a todo `in_progress` before (same text) keeps its mark; a new one starts now. */
function marksOf(todos: readonly TodoItem[], previous: Record<string, number>, now: number): Record<string, number> {
  const marks = dictionary<number>();
  for (const todo of todos)
    if (todo.state === 'in_progress' && !Object.hasOwn(marks, todo.text))
      marks[todo.text] = own(previous, todo.text) ?? now;
  return marks;
}

const without = <T>(record: Record<string, T>, key: string): Record<string, T> =>
  Object.hasOwn(record, key) ? Object.fromEntries(Object.entries(record).filter(([k]) => k !== key)) : record;

type Data = { work_item_id?: string; todo_list?: TodoItem[]; unfinished_todo_count?: number; turn_id?: string };

/** A work-item event's effect on the todo marks; `turnIndex` is the agent's turn index when it happened. */
function todoMarks(progress: ProgressState, event: AnyEvent, data: Data, turnIndex: number): ProgressState {
  const id = data.work_item_id;
  if (typeof id !== 'string') return progress;
  if (event.type === 'WorkItemCompleted') {
    const unfinished = (data.unfinished_todo_count ?? 0) > 0;
    return {
      ...progress,
      in_progress_since: without(progress.in_progress_since, id),
      completed_unfinished: unfinished
        ? { ...progress.completed_unfinished, [id]: turnIndex }
        : progress.completed_unfinished,
    };
  }
  if ((event.type === 'WorkItemCreated' || event.type === 'WorkItemUpdated') && Array.isArray(data.todo_list)) {
    const marks = marksOf(data.todo_list, own(progress.in_progress_since, id) ?? {}, progress.rounds);
    return { ...progress, in_progress_since: { ...progress.in_progress_since, [id]: marks } };
  }
  return progress;
}

/** Completions older than the turn before the newest one are dropped (their reminder is over). */
function pruned(completed: Record<string, number>, turnIndex: number): Record<string, number> {
  const kept = Object.entries(completed).filter(([, index]) => index >= turnIndex - 1);
  return kept.length === Object.keys(completed).length ? completed : Object.fromEntries(kept);
}

/** The progress marks after `event` (`after` is the state the event's slice folded to). */
export function evolveProgress(before: AgentState, after: AgentState, event: AnyEvent): ProgressState {
  const progress = before.progress ?? initialProgress();
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Data;
  if (event.type === 'AssistantRoundRecorded') return { ...progress, rounds: progress.rounds + 1 };
  if (event.type === 'TurnStarted' && typeof data.turn_id === 'string')
    return {
      ...progress,
      last_turn_id: data.turn_id,
      completed_unfinished: pruned(progress.completed_unfinished, after.turn_index),
    };
  if (!MUTATIONS.has(event.type)) return progress;
  return todoMarks({ ...progress, work_item_mutation_round: progress.rounds }, event, data, after.turn_index);
}
