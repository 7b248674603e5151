import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import type { BriefRecord, RoundRecord } from '../turn/turn.state';
import type { PlanArtifact, TodoItem, WorkItem } from '../work-item/work-item.state';
import { rankedCandidates, lastTriggeredAt } from './candidates';
import { activeIntentsFor, isTriggered, type Readiness, readinessOf } from './scheduling';
import { currentTodo } from './todo';
import { compareIntents } from './waiting-intent.view';
import { completionReportOf } from './work-item.view';

// The content of each context section (docs/domain-contract.md §6), as JSON. Never the plan body: only its descriptor and preview.

export const TRACE_ROUNDS = 5;
export const TRACE_BRIEFS = 3;
export const CANDIDATE_PREVIEW_CHARS = 200;

export type TraceRound = {
  round_id: string;
  turn_id: string;
  text: string;
  tool_calls: { tool_call_id: string; name: string }[];
  recorded_at: string;
};
export type TraceBrief = { id: string; kind: string; text: string; created_at: string };
export type ContextIntent = {
  id: string;
  wake: string;
  reason: string;
  resource: string | null;
  condition: string | null;
  triggered: boolean;
  trigger_count: number;
  last_triggered_at: string | null;
};

export type CurrentItemContent = {
  id: string;
  objective: string;
  readiness: Readiness;
  plan_status: string;
  focus_mode: 'runnable' | 'inspection';
  revision: number;
  plan_artifact: PlanArtifact;
  todo_list: TodoItem[];
  current_todo: TodoItem | null;
  blocked_by: string | null;
  recheck_at: string | null;
  waiting_intents: ContextIntent[];
  process_trace: { rounds: TraceRound[]; briefs: TraceBrief[] };
};

export type CandidateContent = {
  id: string;
  objective: string;
  readiness: Readiness;
  plan_status: string;
  current_todo: TodoItem | null;
  blocked_by: string | null;
  plan_preview: string;
  trigger_count?: number;
  last_triggered_at?: string | null;
};

export type CountedContent<T> = { count: number; items: T[] };
export type CompletedContent = { id: string; objective: string; completed_at: string | null; report: string };

const newestLast = (a: { at: string; id: string }, b: { at: string; id: string }): number =>
  compareInstants(a.at, b.at) || (a.id < b.id ? -1 : 1);

/**
 * The texts of closed rounds, by round id: the state keeps none, the application reads them from
 * the rounds' AssistantRoundRecorded events (`traceRoundsToRead` says which).
 */
export type RoundTexts = ReadonlyMap<string, string>;
const NO_TEXTS: RoundTexts = new Map();

/** Rounds recorded while the item was the focus or that completed it: the newest few, oldest first. */
export function traceRoundsOf(state: AgentState, itemId: string): RoundRecord[] {
  return state.rounds
    .values()
    .filter((r: RoundRecord) => r.work_item_id === itemId || r.completions.some((c) => c.work_item_id === itemId))
    .map((r) => ({ at: r.recorded_at, id: r.round_id, r }))
    .sort(newestLast)
    .slice(-TRACE_ROUNDS)
    .map(({ r }) => r);
}

/** Rounds recorded while the item was the focus or that completed it, and briefs bound to it: the newest few, oldest first. */
function processTrace(state: AgentState, itemId: string, texts: RoundTexts): CurrentItemContent['process_trace'] {
  const rounds = traceRoundsOf(state, itemId).map((r) => ({
    round_id: r.round_id,
    turn_id: r.turn_id,
    text: r.text ?? texts.get(r.round_id) ?? '',
    tool_calls: r.tool_calls.map((c) => ({ ...c })),
    recorded_at: r.recorded_at,
  }));
  const briefs = state.briefs
    .values()
    .filter((b: BriefRecord) => b.work_item_id === itemId)
    .map((b) => ({ at: b.created_at, id: b.id, b }))
    .sort(newestLast)
    .slice(-TRACE_BRIEFS)
    .map(({ b }) => ({ id: b.id, kind: b.kind, text: b.text, created_at: b.created_at }));
  return { rounds, briefs };
}

function intentsOf(state: AgentState, itemId: string): ContextIntent[] {
  return activeIntentsFor(state, itemId)
    .sort(compareIntents)
    .map((i) => ({
      id: i.id,
      wake: i.wake,
      reason: i.reason,
      resource: i.resource,
      condition: i.condition,
      triggered: isTriggered(i),
      trigger_count: i.trigger_count,
      last_triggered_at: i.last_triggered_at,
    }));
}

/** The focus (or, given an id, that item) in full, as the current item section shows it. */
export function currentItemContent(
  state: AgentState,
  itemId: string | null = state.current_work_item_id,
  texts: RoundTexts = NO_TEXTS,
): CurrentItemContent | null {
  const item = state.work_items.get(itemId);
  if (item === undefined) return null;
  const readiness = readinessOf(state, item);
  const todos = item.todo_list.map((t) => ({ ...t }));
  return {
    id: item.id,
    objective: item.objective,
    readiness,
    plan_status: item.plan_status,
    focus_mode: readiness === 'runnable' ? 'runnable' : 'inspection',
    revision: item.revision,
    plan_artifact: { ...item.plan_artifact },
    todo_list: todos,
    current_todo: currentTodo(todos),
    blocked_by: item.blocked_by,
    recheck_at: item.recheck_at,
    waiting_intents: intentsOf(state, item.id),
    process_trace: processTrace(state, item.id, texts),
  };
}

function candidate(state: AgentState, item: WorkItem): CandidateContent {
  return {
    id: item.id,
    objective: item.objective,
    readiness: readinessOf(state, item),
    plan_status: item.plan_status,
    current_todo: currentTodo(item.todo_list),
    blocked_by: item.blocked_by,
    plan_preview: [...item.plan_artifact.preview].slice(0, CANDIDATE_PREVIEW_CHARS).join(''),
  };
}

export function triggeredContent(state: AgentState, top: number): CountedContent<CandidateContent> {
  const items = rankedCandidates(state, 'triggered_blocked').filter((item) => item.id !== state.current_work_item_id);
  return {
    count: items.length,
    items: items.slice(0, top).map((item) => ({
      ...candidate(state, item),
      trigger_count: activeIntentsFor(state, item.id).reduce((sum, i) => sum + i.trigger_count, 0),
      last_triggered_at: lastTriggeredAt(state, item),
    })),
  };
}

export function classContent(
  state: AgentState,
  cls: 'queued_runnable' | 'waiting_for_operator' | 'blocked',
  top: number,
): CountedContent<CandidateContent> {
  const items = rankedCandidates(state, cls).filter((item) => item.id !== state.current_work_item_id);
  return { count: items.length, items: items.slice(0, top).map((item) => candidate(state, item)) };
}

export function completedContent(state: AgentState, top: number): CountedContent<CompletedContent> {
  const reported = rankedCandidates(state, 'completed_recent')
    .map((item) => ({ item, report: completionReportOf(state, item) }))
    .filter((entry) => entry.report !== null);
  return {
    count: reported.length,
    items: reported.slice(0, top).map(({ item, report }) => ({
      id: item.id,
      objective: item.objective,
      completed_at: item.completed_at,
      report: report?.text ?? '',
    })),
  };
}
