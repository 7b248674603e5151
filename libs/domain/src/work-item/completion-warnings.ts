import type { Warning } from '../shared/warnings';
import { unfinishedTodos } from '../views/todo';
import type { TodoItem } from './work-item.state';

export const UNFINISHED_TODOS_WARNING = 'unfinished_todos';
export const UNFINISHED_TODOS_SAMPLE_SIZE = 5;

type UnfinishedCounts = {
  completed_with_unfinished_todos?: boolean;
  pending_todo_count: number;
  in_progress_todo_count: number;
};

/** The warning of a completion with unfinished todos (reply of CompleteWorkItem, evidence of a delivery summary); none otherwise. */
export function unfinishedTodosWarnings(counts: UnfinishedCounts, todoList: readonly TodoItem[]): Warning[] {
  if (counts.pending_todo_count + counts.in_progress_todo_count === 0) return [];
  return [
    {
      kind: UNFINISHED_TODOS_WARNING,
      message: 'Work item completed with unfinished todo items.',
      pending_count: counts.pending_todo_count,
      in_progress_count: counts.in_progress_todo_count,
      sample: unfinishedTodos(todoList, UNFINISHED_TODOS_SAMPLE_SIZE).map((todo) => ({ ...todo })),
    },
  ];
}

export const REPORT_PROMOTION_SKIPPED_WARNING = 'report_promotion_skipped_no_round';

type SkippedPromotion = { work_item_id: string; round_id: string | null; report_promotion?: 'skipped_no_round' };

/** The warning of a completion in a turn without an open round: its report is not promoted. */
export function reportPromotionSkippedWarnings(completion: SkippedPromotion, openTurnId: string | null): Warning[] {
  if (completion.report_promotion !== 'skipped_no_round') return [];
  const message =
    completion.round_id === null
      ? `Work item ${completion.work_item_id} was completed without a round_id: its report is not promoted.`
      : `Work item ${completion.work_item_id} was completed naming round ${completion.round_id}, which is not open: its report is not promoted.`;
  return [
    {
      kind: REPORT_PROMOTION_SKIPPED_WARNING,
      message,
      work_item_id: completion.work_item_id,
      round_id: completion.round_id,
      turn_id: openTurnId,
    },
  ];
}
