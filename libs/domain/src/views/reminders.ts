import type { AgentState } from '../agent/agent.state';
import { own } from '../agent/progress.state';
import type { TodoItem } from '../work-item/work-item.state';
import { todoCounts, unfinishedTodos } from './todo';

// Reminders (docs/domain-contract.md §2, "Reminders"; issue 17 item 5): derived from the folded
// state, carried by the round-close, heartbeat and activation replies. The runtime never edits a
// todo: a reminder only tells the agent what looks stale.

export type ReminderKind =
  'rounds_without_work_item_change' | 'stale_in_progress_todo' | 'completed_with_unfinished_todos';
export const REMINDER_KINDS: readonly ReminderKind[] = [
  'rounds_without_work_item_change',
  'stale_in_progress_todo',
  'completed_with_unfinished_todos',
];

export type Reminder = {
  kind: ReminderKind;
  /** The item concerned (for `rounds_without_work_item_change`: the open turn's item, else the focus). */
  work_item_id: string;
  /** The todo concerned (`stale_in_progress_todo`; the first unfinished one for a completion). */
  todo?: TodoItem;
  detail: string;
};

/** Thresholds in assistant rounds (0 turns a reminder off). The application reads them from its settings. */
export type ReminderSettings = {
  /** REMINDER_ROUNDS_WITHOUT_CHANGE: rounds since the last work-item mutation. */
  rounds_without_work_item_change: number;
  /** REMINDER_STALE_TODO_ROUNDS: rounds an `in_progress` todo stayed as it is. */
  stale_todo_rounds: number;
};

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  rounds_without_work_item_change: 10,
  stale_todo_rounds: 20,
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The items the agent works on: the open turn's item, then the focus (open ones, once each). */
function workedOn(state: AgentState): string[] {
  const turn = state.turns.get(state.open_turn_id);
  const ids = [turn?.work_item_id ?? null, state.current_work_item_id].filter(
    (id): id is string => id !== null && state.work_items.get(id)?.state === 'open',
  );
  return [...new Set(ids)];
}

function roundsWithoutChange(state: AgentState, threshold: number, items: string[]): Reminder[] {
  const progress = state.progress;
  const rounds = progress.rounds - progress.work_item_mutation_round;
  if (threshold <= 0 || rounds < threshold || items.length === 0) return [];
  return [
    {
      kind: 'rounds_without_work_item_change',
      work_item_id: items[0],
      detail:
        `${plural(rounds, 'assistant round')} without a work-item change: update the item's todo list, ` +
        'blocker or plan, or complete it, if your work moved it.',
    },
  ];
}

function staleTodos(state: AgentState, threshold: number, items: string[]): Reminder[] {
  if (threshold <= 0) return [];
  const clock = state.progress.rounds;
  return items.flatMap((id) =>
    Object.entries(own(state.progress.in_progress_since, id) ?? {})
      .filter(([, since]) => clock - since >= threshold)
      .map(([text, since]) => ({
        kind: 'stale_in_progress_todo' as const,
        work_item_id: id,
        todo: { text, state: 'in_progress' as const },
        detail: `in progress and unchanged for ${plural(clock - since, 'assistant round')}: mark it completed or pending if it is.`,
      })),
  );
}

function completedUnfinished(state: AgentState): Reminder[] {
  return Object.entries(state.progress.completed_unfinished)
    .filter(([, turnIndex]) => turnIndex >= state.turn_index - 1)
    .map(([id]) => state.work_items.get(id))
    .filter((item) => item !== undefined && item.state === 'completed')
    .sort((a, b) => (a!.id < b!.id ? -1 : 1))
    .flatMap((item) => {
      const counts = todoCounts(item!.todo_list);
      const [first] = unfinishedTodos(item!.todo_list, 1);
      if (first === undefined) return [];
      return [
        {
          kind: 'completed_with_unfinished_todos' as const,
          work_item_id: item!.id,
          todo: { ...first },
          detail:
            `completed with ${plural(counts.unfinished, 'unfinished todo')} (${counts.pending} pending, ` +
            `${counts.in_progress} in progress): the runtime keeps the list as it is.`,
        },
      ];
    });
}

/**
 * The reminders of the agent now: rounds without a work-item change (counted across turns until
 * a mutation), `in_progress` todos of the items it works on unchanged for too long, and items
 * completed with unfinished todos during the newest turn or the one before it.
 */
export function remindersOf(state: AgentState, settings: ReminderSettings = DEFAULT_REMINDER_SETTINGS): Reminder[] {
  if (state.agent_id === null) return [];
  const items = workedOn(state);
  return [
    ...roundsWithoutChange(state, settings.rounds_without_work_item_change, items),
    ...staleTodos(state, settings.stale_todo_rounds, items),
    ...completedUnfinished(state),
  ];
}
