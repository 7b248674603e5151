import { changeRecord, putRecord } from '../agent/agent.records';
import type { AgentState, Posture } from '../agent/agent.state';
import type { WorkItemCompleted } from '../work-item/work-item.events';
import type {
  AssistantRoundRecorded,
  RoundClosed,
  TurnEvent,
  TurnStarted,
  TurnTerminal,
  WorkItemReportPromoted,
} from './turn.events';
import { sha256Digest } from '../shared/digest';
import type { TurnRecord } from './turn.state';

const running = (posture: Posture): Posture =>
  posture === 'awake_idle' || posture === 'asleep' ? 'awake_running' : posture;
const idle = (posture: Posture): Posture => (posture === 'awake_running' ? 'awake_idle' : posture);

function turnStarted(state: AgentState, { data }: TurnStarted): AgentState {
  const turn: TurnRecord = {
    turn_id: data.turn_id,
    turn_index: data.turn_index,
    message_id: data.message_id,
    work_item_id: data.work_item_id,
    work_item_revision: data.work_item_revision,
    status: 'open',
    started_at: data.at,
    lease_ttl_ms: data.lease_ttl_ms,
    lease_expires_at: data.lease_expires_at,
    last_heartbeat_at: null,
    round_ids: [],
    open_round_id: null,
    promoted_round_ids: [],
    terminal: null,
    recovery: null,
  };
  const key = data.consumed_tick_key;
  const consumed =
    key === null || state.emitted_tick_keys.has(key)
      ? state.emitted_tick_keys
      : state.emitted_tick_keys.set(key, data.at);
  const next = putRecord(state, 'turns', data.turn_id, turn);
  return {
    ...next,
    open_turn_id: data.turn_id,
    turn_index: data.turn_index,
    posture: running(state.posture),
    emitted_tick_keys: consumed,
  };
}

function roundRecorded(state: AgentState, { data }: AssistantRoundRecorded): AgentState {
  const next = putRecord(state, 'rounds', data.round_id, {
    round_id: data.round_id,
    turn_id: data.turn_id,
    work_item_id: data.work_item_id,
    text: data.text,
    text_digest: null,
    // The stream revision of this event (version counts the events folded before it).
    revision: state.version,
    tool_calls: data.tool_calls,
    status: 'open',
    completions: [],
    promotion: null,
    warnings: [],
    recorded_at: data.at,
    closed_at: null,
  });
  return changeRecord(next, 'turns', data.turn_id, (turn) => ({
    ...turn,
    round_ids: [...turn.round_ids, data.round_id],
    open_round_id: data.round_id,
  }));
}

function roundClosed(state: AgentState, { data }: RoundClosed): AgentState {
  const next = changeRecord(state, 'rounds', data.round_id, (round) => ({
    ...round,
    // A closed round's text is read back from its event (the process trace); the state keeps its digest.
    text: null,
    text_digest: round.text === null ? round.text_digest : sha256Digest(round.text),
    status: 'closed',
    promotion: data.promotion,
    warnings: data.warnings,
    closed_at: data.at,
  }));
  return changeRecord(next, 'turns', data.turn_id, (turn) =>
    turn.open_round_id === data.round_id ? { ...turn, open_round_id: null } : turn,
  );
}

function reportPromoted(state: AgentState, { data }: WorkItemReportPromoted): AgentState {
  const next = changeRecord(state, 'work_items', data.work_item_id, (item) => ({
    ...item,
    result_summary: data.result_summary,
    revision: data.revision,
    updated_at: data.at,
  }));
  return changeRecord(next, 'turns', data.turn_id, (turn) => ({
    ...turn,
    promoted_round_ids: [...turn.promoted_round_ids, data.round_id],
  }));
}

function turnEnded(state: AgentState, { data }: TurnTerminal): AgentState {
  const next = changeRecord(state, 'turns', data.turn_id, (turn) => ({
    ...turn,
    status: 'closed',
    open_round_id: null,
    terminal: { terminal_kind: data.terminal_kind, last_assistant_message: data.last_assistant_message, at: data.at },
  }));
  if (state.open_turn_id !== data.turn_id) return next;
  return { ...next, open_turn_id: null, posture: idle(state.posture) };
}

export function evolveTurn(state: AgentState, event: TurnEvent): AgentState {
  switch (event.type) {
    case 'TurnStarted':
      return turnStarted(state, event);
    case 'TurnLeaseRenewed': {
      const { data } = event;
      return changeRecord(state, 'turns', data.turn_id, (turn) => ({
        ...turn,
        lease_ttl_ms: data.lease_ttl_ms,
        lease_expires_at: data.lease_expires_at,
        last_heartbeat_at: data.at,
      }));
    }
    case 'AssistantRoundRecorded':
      return roundRecorded(state, event);
    case 'RoundClosed':
      return roundClosed(state, event);
    case 'WorkItemReportPromoted':
      return reportPromoted(state, event);
    case 'DeliverySummaryRecorded': {
      const { data } = event;
      return putRecord(state, 'delivery_summaries', data.delivery_summary_id, {
        id: data.delivery_summary_id,
        work_item_id: data.work_item_id,
        text: data.text,
        created_at: data.at,
        turn_id: data.turn_id,
        round_id: data.round_id,
        evidence: data.evidence,
      });
    }
    case 'BriefRecorded': {
      const { data } = event;
      return putRecord(state, 'briefs', data.brief_id, {
        id: data.brief_id,
        kind: data.kind,
        text: data.text,
        work_item_id: data.work_item_id,
        turn_id: data.turn_id,
        round_id: data.round_id,
        created_at: data.at,
      });
    }
    case 'TurnTerminal':
      return turnEnded(state, event);
    case 'RecoveryClassified': {
      const { data } = event;
      const next = changeRecord(state, 'turns', data.turn_id, (turn) => ({ ...turn, recovery: data.classification }));
      return changeRecord(next, 'messages', data.message_id, (message) => ({
        ...message,
        interrupt_count: data.interrupt_count,
      }));
    }
  }
}

/**
 * A completion that names an open round is kept on the round, with whether the item was the
 * focus when it ran (WorkItemCompleted precedes the focus release in its decision).
 */
export function observeCompletion(state: AgentState, { data }: WorkItemCompleted): AgentState {
  const round = state.rounds.get(data.round_id);
  if (round?.status !== 'open') return state;
  const completion = {
    work_item_id: data.work_item_id,
    focused: state.current_work_item_id === data.work_item_id,
    unfinished_todo_count: data.unfinished_todo_count,
    pending_todo_count: data.pending_todo_count,
    in_progress_todo_count: data.in_progress_todo_count,
    at: data.at,
  };
  return putRecord(state, 'rounds', round.round_id, { ...round, completions: [...round.completions, completion] });
}
