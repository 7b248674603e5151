import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import type { Warning } from '../shared/warnings';
import { unfinishedTodosWarnings } from '../work-item/completion-warnings';
import type {
  BriefRecorded,
  DeliverySummaryRecorded,
  RoundCloseCause,
  RoundClosed,
  WorkItemReportPromoted,
} from './turn.events';
import {
  deliverySummaryIdFor,
  type Promotion,
  type RoundCompletion,
  type RoundRecord,
  roundBriefIdFor,
} from './turn.state';

// Report promotion (docs/domain-contract.md §4): evaluated once, when a round closes, over the round's
// successful transitioning CompleteWorkItem calls.

export const MISSING_COMPLETION_REPORT = 'missing_completion_report';
export const NOT_PROMOTED_MULTIPLE_COMPLETIONS = 'completion_report_not_promoted_multiple_completions';
export const NOT_PROMOTED_UNFOCUSED_COMPLETION = 'completion_report_not_promoted_unfocused_completion';

export type PromotionOutcome = { promoted: RoundCompletion | null; warnings: Warning[] };

function warning(kind: string, message: string, round: RoundRecord, completion: RoundCompletion, extra = {}): Warning {
  return { kind, message, work_item_id: completion.work_item_id, round_id: round.round_id, ...extra };
}

/** Exactly one completion, of the item focused when it ran, with round text: promoted. Otherwise warnings say why not. */
export function evaluatePromotion(state: AgentState, round: RoundRecord): PromotionOutcome {
  const { completions } = round;
  if (completions.length === 0) return { promoted: null, warnings: [] };
  if (completions.length > 1) {
    const text = `Round ${round.round_id} completed ${completions.length} work items: its text is not promoted to any of them.`;
    return {
      promoted: null,
      warnings: completions.map((c) =>
        warning(NOT_PROMOTED_MULTIPLE_COMPLETIONS, text, round, c, { completion_count: completions.length }),
      ),
    };
  }
  const [completion] = completions;
  // Only an open round is evaluated: it still holds its text.
  if ((round.text ?? '') === '') {
    const text = `Work item ${completion.work_item_id} was completed in round ${round.round_id} without report text: it has no completion report.`;
    return { promoted: null, warnings: [warning(MISSING_COMPLETION_REPORT, text, round, completion)] };
  }
  if (!completion.focused) {
    const text = `Work item ${completion.work_item_id} was not the focus when round ${round.round_id} completed it: the round text is not promoted.`;
    return { promoted: null, warnings: [warning(NOT_PROMOTED_UNFOCUSED_COMPLETION, text, round, completion)] };
  }
  const item = state.work_items.get(completion.work_item_id);
  // A report is never overwritten.
  return { promoted: item !== undefined && item.result_summary === null ? completion : null, warnings: [] };
}

function promotionEvents(
  state: AgentState,
  agentId: string,
  round: RoundRecord,
  completion: RoundCompletion,
  at: string,
): AgentEvent[] {
  const item = state.work_items.get(completion.work_item_id);
  const ids = { delivery_summary_id: deliverySummaryIdFor(round.round_id), brief_id: roundBriefIdFor(round.round_id) };
  const source = { turn_id: round.turn_id, round_id: round.round_id };
  const promoted: WorkItemReportPromoted = {
    type: 'WorkItemReportPromoted',
    data: {
      agent_id: agentId,
      work_item_id: completion.work_item_id,
      ...source,
      result_summary: round.text ?? '',
      ...ids,
      revision: (item?.revision ?? 0) + 1,
      at,
    },
  };
  const evidence = {
    source: 'report_promotion' as const,
    warnings: unfinishedTodosWarnings(completion, item?.todo_list ?? []),
    tool_call_ids: round.tool_calls.map((call) => call.tool_call_id),
  };
  const summary: DeliverySummaryRecorded = {
    type: 'DeliverySummaryRecorded',
    data: {
      agent_id: agentId,
      delivery_summary_id: ids.delivery_summary_id,
      work_item_id: completion.work_item_id,
      text: round.text ?? '',
      ...source,
      evidence,
      at,
    },
  };
  const brief: BriefRecorded = {
    type: 'BriefRecorded',
    data: {
      agent_id: agentId,
      brief_id: ids.brief_id,
      kind: 'result',
      text: round.text ?? '',
      work_item_id: completion.work_item_id,
      ...source,
      at,
    },
  };
  return [promoted, summary, brief];
}

/** RoundClosed (with the promotion and warnings) and, when promoted, the report, delivery summary and result brief. */
export function roundCloseEvents(
  state: AgentState,
  agentId: string,
  round: RoundRecord,
  cause: RoundCloseCause,
  at: string,
): AgentEvent[] {
  const { promoted, warnings } = evaluatePromotion(state, round);
  const promotion: Promotion | null =
    promoted === null
      ? null
      : {
          work_item_id: promoted.work_item_id,
          delivery_summary_id: deliverySummaryIdFor(round.round_id),
          brief_id: roundBriefIdFor(round.round_id),
        };
  const closed: RoundClosed = {
    type: 'RoundClosed',
    data: { agent_id: agentId, turn_id: round.turn_id, round_id: round.round_id, cause, promotion, warnings, at },
  };
  return promoted === null ? [closed] : [closed, ...promotionEvents(state, agentId, round, promoted, at)];
}

/** The turn's open round closed first (by the next round or the terminal), if it has one. */
export function closeOpenRoundEvents(
  state: AgentState,
  agentId: string,
  openRoundId: string | null,
  cause: RoundCloseCause,
  at: string,
): AgentEvent[] {
  const round = state.rounds.get(openRoundId);
  return round?.status === 'open' ? roundCloseEvents(state, agentId, round, cause, at) : [];
}
