import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import { charLength } from '../shared/text';
import { type ContextMessage, queuedMessagesContent, renderQueuedMessages } from './context.messages';
import { renderCandidates, renderCompleted, renderCurrentItem } from './context.render';
import { DEFAULT_REMINDER_SETTINGS, type Reminder, type ReminderSettings, remindersOf } from './reminders';
import {
  type CandidateContent,
  classContent,
  type CompletedContent,
  completedContent,
  type CountedContent,
  type CurrentItemContent,
  currentItemContent,
  type RoundTexts,
  traceRoundsOf,
  triggeredContent,
} from './context.sections';

export type {
  CandidateContent,
  CompletedContent,
  CountedContent,
  CurrentItemContent,
  RoundTexts,
} from './context.sections';
export type { ContextMessage } from './context.messages';

export const DEFAULT_CONTEXT_BUDGET_TOKENS = 4096;

export type ContextSectionName =
  | 'turn_work_item'
  | 'current_work_item'
  | 'queued_messages'
  | 'triggered_candidates'
  | 'queued_runnable'
  | 'waiting_for_operator'
  | 'blocked'
  | 'recently_completed';

export type ContextSection =
  | {
      name: 'turn_work_item' | 'current_work_item';
      content: CurrentItemContent | null;
      text: string;
      estimated_tokens: number;
    }
  | {
      name: 'triggered_candidates' | 'queued_runnable' | 'waiting_for_operator' | 'blocked';
      content: CountedContent<CandidateContent>;
      text: string;
      estimated_tokens: number;
    }
  | { name: 'queued_messages'; content: CountedContent<ContextMessage>; text: string; estimated_tokens: number }
  | { name: 'recently_completed'; content: CountedContent<CompletedContent>; text: string; estimated_tokens: number };

export type ContextProjection = {
  budget_tokens: number;
  /** ceil(chars / 4) of `text`. */
  estimated_tokens: number;
  /**
   * In priority order: the current item, preceded by the open turn's item when the turn is bound
   * to another item than the focus (a task result re-entering for it, issue 15 item 1).
   */
  sections: ContextSection[];
  /** Cut from the end under pressure, in the order they were cut. */
  omitted_sections: ContextSectionName[];
  /** Process trace entries left out of the current item to fit the budget. */
  trimmed_trace_entries: number;
  truncated: boolean;
  /** True when even the current item (and the turn's item) alone does not fit (they are never cut). */
  over_budget: boolean;
  text: string;
  /** Reminders of what looks stale (docs/domain-contract.md §2, Reminders): beside the text, never in the budget. */
  reminders: Reminder[];
};

export type ContextOptions = {
  budget_tokens?: number;
  reminders?: ReminderSettings;
  /** The texts of the closed rounds `traceRoundsToRead` names (the state keeps none; ADR 0042). */
  round_texts?: RoundTexts;
};

/** docs/domain-contract.md §6: tokens are estimated as ceil(characters / 4). */
export const estimateTokens = (text: string): number => Math.ceil(charLength(text) / 4);

const SEPARATOR = '\n\n';

function section<S extends ContextSection>(name: S['name'], content: S['content'], text: string): S {
  return { name, content, text, estimated_tokens: estimateTokens(text) } as S;
}

function currentSection(content: CurrentItemContent | null): ContextSection {
  return section('current_work_item', content, renderCurrentItem(content));
}

type ListName = 'triggered_candidates' | 'queued_runnable' | 'waiting_for_operator' | 'blocked';

function listSection(name: ListName, title: string, content: CountedContent<CandidateContent>): ContextSection | null {
  return content.count === 0 ? null : section(name, content, renderCandidates(title, content));
}

/** What waits in the queue, each message marked render_as (issue 15 item 9). */
function messagesSection(content: CountedContent<ContextMessage>): ContextSection | null {
  return content.count === 0 ? null : section('queued_messages', content, renderQueuedMessages(content));
}

function completedSection(content: CountedContent<CompletedContent>): ContextSection | null {
  return content.count === 0 ? null : section('recently_completed', content, renderCompleted(content));
}

/** The open turn's item when it is not the focus, or null. */
function turnItemId(state: AgentState): string | null {
  const itemId = state.turns.get(state.open_turn_id)?.work_item_id ?? null;
  return itemId === state.current_work_item_id ? null : itemId;
}

/**
 * The closed rounds whose text the process trace shows (at most TRACE_ROUNDS per item shown),
 * with the stream revision of each one's AssistantRoundRecorded: what the caller reads for `round_texts`.
 */
export function traceRoundsToRead(state: AgentState): { round_id: string; revision: number }[] {
  const items = [turnItemId(state), state.current_work_item_id].filter(
    (id): id is string => id !== null && state.work_items.has(id),
  );
  return items.flatMap((itemId) =>
    traceRoundsOf(state, itemId)
      .filter((r) => r.text === null)
      .map((r) => ({ round_id: r.round_id, revision: r.revision })),
  );
}

/** The texts of the AssistantRoundRecorded among `events`, by round id (what `round_texts` takes). */
export function roundTextsOf(events: readonly AgentEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const event of events)
    if (event.type === 'AssistantRoundRecorded') texts.set(event.data.round_id, event.data.text);
  return texts;
}

/** The open turn's item when it is not the focus: shown first, never cut. */
function turnItemSections(state: AgentState, texts?: RoundTexts): ContextSection[] {
  const itemId = turnItemId(state);
  if (itemId === null) return [];
  const content = currentItemContent(state, itemId, texts);
  if (content === null) return [];
  return [section('turn_work_item', content, renderCurrentItem(content, "This turn's work item (a result for it)"))];
}

/** Every section with something to say, in priority order (the current item always). */
function allSections(state: AgentState, texts?: RoundTexts): ContextSection[] {
  const lists = [
    messagesSection(queuedMessagesContent(state)),
    listSection('triggered_candidates', 'Triggered candidates', triggeredContent(state, 3)),
    listSection('queued_runnable', 'Queued runnable', classContent(state, 'queued_runnable', 5)),
    listSection('waiting_for_operator', 'Waiting for operator', classContent(state, 'waiting_for_operator', 5)),
    listSection('blocked', 'Blocked', classContent(state, 'blocked', 3)),
    completedSection(completedContent(state, 3)),
  ];
  return [
    ...turnItemSections(state, texts),
    currentSection(currentItemContent(state, state.current_work_item_id, texts)),
    ...lists.filter((s): s is ContextSection => s !== null),
  ];
}

const totalTokens = (sections: ContextSection[]): number => estimateTokens(sections.map((s) => s.text).join(SEPARATOR));

/** The current item with its oldest trace entries dropped, one at a time, until it fits (or nothing is left to drop). */
function trimTrace(current: ContextSection, budget: number): { section: ContextSection; trimmed: number } {
  let content = current.content as CurrentItemContent | null;
  let trimmed = 0;
  let next = current;
  while (
    content !== null &&
    next.estimated_tokens > budget &&
    content.process_trace.rounds.length + content.process_trace.briefs.length > 0
  ) {
    const { rounds, briefs } = content.process_trace;
    content = {
      ...content,
      process_trace: rounds.length > 0 ? { rounds: rounds.slice(1), briefs } : { rounds, briefs: briefs.slice(1) },
    };
    trimmed += 1;
    next = currentSection(content);
  }
  return { section: next, trimmed };
}

/**
 * The layered context of docs/domain-contract.md §6 within `budget_tokens` (default 4096): sections are cut from
 * the end under pressure; the current item is never cut (its oldest trace entries go first).
 */
export function contextProjection(state: AgentState, options: ContextOptions = {}): ContextProjection {
  const budget = Number.isFinite(options.budget_tokens)
    ? Math.max(0, Math.floor(options.budget_tokens ?? 0))
    : DEFAULT_CONTEXT_BUDGET_TOKENS;
  const sections = allSections(state, options.round_texts);
  const first = sections.findIndex((s) => s.name === 'current_work_item');
  const omitted: ContextSectionName[] = [];
  while (sections.length > first + 1 && totalTokens(sections) > budget)
    omitted.push((sections.pop() as ContextSection).name);
  const { section: current, trimmed } = trimTrace(sections[first], budget);
  sections[first] = current;
  const text = sections.map((s) => s.text).join(SEPARATOR);
  const estimated = estimateTokens(text);
  return {
    budget_tokens: budget,
    estimated_tokens: estimated,
    sections,
    omitted_sections: omitted,
    trimmed_trace_entries: trimmed,
    truncated: omitted.length > 0 || trimmed > 0,
    over_budget: estimated > budget,
    text,
    reminders: remindersOf(state, options.reminders ?? DEFAULT_REMINDER_SETTINGS),
  };
}
