import type {
  ActivationReply, ActivationTurnView, BriefView, ContextProjection, DecisionView, DeliverySummaryView, Promotion, RoundCloseReply,
  RoundView, TurnView,
} from '@app/domain';
import type * as Rpc from '@app/contracts';
import { absentIfNull, revisionOf, toWarningMessages } from './grpc-replies';
import { toQueuedMessage } from './grpc-waiting-replies';

/*
 * Turn and scheduler views -> agent_runtime.proto messages: the same fields and literals as
 * the HTTP JSON; null becomes an absent field.
 */

export function toDecision(decision: DecisionView & { revision?: string }): Rpc.DecisionMessage {
  return {
    kind: decision.kind, reason: decision.reason, model_reentry: decision.model_reentry, liveness_only: decision.liveness_only,
    message_id: absentIfNull(decision.message_id), work_item_id: absentIfNull(decision.work_item_id), task_id: absentIfNull(decision.task_id),
    idempotency_key: absentIfNull(decision.idempotency_key), evidence: [...decision.evidence],
    recorded_at: absentIfNull(decision.recorded_at), revision: decision.revision,
  };
}

export function toActivationTurn(turn: ActivationTurnView): Rpc.ActivationTurnMessage {
  return { turn_id: turn.turn_id, turn_index: turn.turn_index, lease_expires_at: turn.lease_expires_at, work_item_id: absentIfNull(turn.work_item_id) };
}

export function toContext(context: ContextProjection): Rpc.ContextProjectionMessage {
  return {
    budget_tokens: context.budget_tokens, estimated_tokens: context.estimated_tokens,
    sections: context.sections.map((section) => ({
      name: section.name, text: section.text, estimated_tokens: section.estimated_tokens,
      content_json: section.content === null ? undefined : JSON.stringify(section.content),
    })),
    omitted_sections: [...context.omitted_sections], trimmed_trace_entries: context.trimmed_trace_entries,
    truncated: context.truncated, over_budget: context.over_budget, text: context.text,
  };
}

export function toActivateReply(reply: ActivationReply & { revision: string | null }): Rpc.ActivateReply {
  return {
    decision: toDecision(reply.decision), turn: reply.turn && toActivationTurn(reply.turn), message: reply.message && toQueuedMessage(reply.message),
    context: reply.context && toContext(reply.context), revision: revisionOf(reply),
  };
}

const toPromotion = (promotion: Promotion | null): Rpc.PromotionMessage | undefined => absentIfNull(promotion && { ...promotion });

export function toRound(round: RoundView): Rpc.RoundMessage {
  return {
    round_id: round.round_id, turn_id: round.turn_id, work_item_id: absentIfNull(round.work_item_id), text: round.text,
    tool_calls: round.tool_calls.map((call) => ({ ...call })), status: round.status, completions: round.completions.map((c) => ({ ...c })),
    promotion: toPromotion(round.promotion), warnings: toWarningMessages(round.warnings), recorded_at: round.recorded_at,
    closed_at: absentIfNull(round.closed_at),
  };
}

export function toClosedRound(closed: (RoundCloseReply & { round_id: string }) | null): Rpc.ClosedRoundMessage | undefined {
  return closed === null ? undefined : { round_id: closed.round_id, promotion: toPromotion(closed.promotion), warnings: toWarningMessages(closed.warnings) };
}

export function toPromotionReply(reply: RoundCloseReply & { revision: string | null }): Rpc.CloseRoundReply {
  return { promotion: toPromotion(reply.promotion), warnings: toWarningMessages(reply.warnings), revision: revisionOf(reply) };
}

export function toTurn(turn: TurnView): Rpc.TurnMessage {
  const terminal = turn.terminal;
  return {
    turn_id: turn.turn_id, turn_index: turn.turn_index, message_id: turn.message_id, work_item_id: absentIfNull(turn.work_item_id),
    work_item_revision: absentIfNull(turn.work_item_revision), status: turn.status, started_at: turn.started_at,
    lease_ttl_ms: turn.lease_ttl_ms, lease_expires_at: turn.lease_expires_at, last_heartbeat_at: absentIfNull(turn.last_heartbeat_at),
    round_ids: [...turn.round_ids], open_round_id: absentIfNull(turn.open_round_id), promoted_round_ids: [...turn.promoted_round_ids],
    terminal: terminal === null ? undefined : { terminal_kind: terminal.terminal_kind, last_assistant_message: absentIfNull(terminal.last_assistant_message), at: terminal.at },
    recovery: absentIfNull(turn.recovery),
  };
}

export function toBrief(brief: BriefView): Rpc.BriefMessage {
  return { id: brief.id, kind: brief.kind, text: brief.text, work_item_id: absentIfNull(brief.work_item_id), created_at: brief.created_at };
}

export function toDeliverySummary(summary: DeliverySummaryView): Rpc.DeliverySummaryMessage {
  const { evidence } = summary;
  return {
    id: summary.id, work_item_id: summary.work_item_id, text: summary.text, created_at: summary.created_at,
    turn_id: absentIfNull(summary.turn_id), round_id: absentIfNull(summary.round_id),
    evidence: { source: evidence.source, warnings: toWarningMessages(evidence.warnings), tool_call_ids: [...evidence.tool_call_ids] },
  };
}
