import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import type { BriefKind, BriefRecord, DeliverySummaryRecord, RoundRecord, TurnRecord } from '../turn/turn.state';
import type { Warning } from '../shared/warnings';
import { type ListReply, page, parseListParam } from './list';

/** A deep copy (views never share objects with the state). */
export const cloneWarning = (warning: Warning): Warning => JSON.parse(JSON.stringify(warning)) as Warning;

/** The turn of an activation or heartbeat reply (docs/api.md). */
export type ActivationTurnView = {
  turn_id: string;
  turn_index: number;
  lease_expires_at: string;
  work_item_id: string | null;
};

export function toActivationTurnView(turn: TurnRecord): ActivationTurnView {
  return {
    turn_id: turn.turn_id,
    turn_index: turn.turn_index,
    lease_expires_at: turn.lease_expires_at,
    work_item_id: turn.work_item_id,
  };
}

/** A turn with everything it recorded (audit). */
export type TurnView = Omit<TurnRecord, 'round_ids' | 'promoted_round_ids' | 'terminal'> & {
  round_ids: string[];
  promoted_round_ids: string[];
  terminal: TurnRecord['terminal'];
};

export function toTurnView(turn: TurnRecord): TurnView {
  return {
    ...turn,
    round_ids: [...turn.round_ids],
    promoted_round_ids: [...turn.promoted_round_ids],
    terminal: turn.terminal && { ...turn.terminal },
  };
}

/** docs/api.md round shape: the text always (a closed round's from where the caller read it). */
export type RoundView = Omit<RoundRecord, 'text' | 'text_digest' | 'revision'> & { text: string };

/** `text`: the round's own, or for a closed round (the state keeps none) the text the caller knows it has. */
export function toRoundView(round: RoundRecord, text: string = round.text ?? ''): RoundView {
  return {
    round_id: round.round_id,
    turn_id: round.turn_id,
    work_item_id: round.work_item_id,
    text,
    tool_calls: round.tool_calls.map((c) => ({ ...c })),
    status: round.status,
    completions: round.completions.map((c) => ({ ...c })),
    promotion: round.promotion && { ...round.promotion },
    warnings: round.warnings.map(cloneWarning),
    recorded_at: round.recorded_at,
    closed_at: round.closed_at,
  };
}

/** docs/api.md brief shape. */
export type BriefView = { id: string; kind: BriefKind; text: string; work_item_id: string | null; created_at: string };

export function toBriefView(brief: BriefRecord): BriefView {
  return {
    id: brief.id,
    kind: brief.kind,
    text: brief.text,
    work_item_id: brief.work_item_id,
    created_at: brief.created_at,
  };
}

export type BriefListQuery = { kind?: BriefKind | 'all'; work_item_id?: string; limit?: number };
export const BRIEF_LIST_KINDS: readonly (BriefKind | 'all')[] = ['all', 'ack', 'result', 'failure'];

/** GET briefs: newest first (created_at desc, then id desc). */
export function listBriefs(state: AgentState, query: BriefListQuery = {}): ListReply<BriefView> {
  const kind = parseListParam(query.kind, 'kind', BRIEF_LIST_KINDS, 'all');
  const matches = state.briefs
    .values()
    .filter(
      (b) =>
        (kind === 'all' || b.kind === kind) &&
        (query.work_item_id === undefined || b.work_item_id === query.work_item_id),
    )
    .sort((a, b) => compareInstants(b.created_at, a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return page(matches, query.limit, toBriefView);
}

export type DeliverySummaryView = DeliverySummaryRecord;

export function toDeliverySummaryView(summary: DeliverySummaryRecord): DeliverySummaryView {
  return {
    ...summary,
    evidence: {
      ...summary.evidence,
      warnings: summary.evidence.warnings.map(cloneWarning),
      tool_call_ids: [...summary.evidence.tool_call_ids],
    },
  };
}

export function turnView(state: AgentState, turnId: string): TurnView | null {
  const turn = state.turns.get(turnId);
  return turn ? toTurnView(turn) : null;
}
