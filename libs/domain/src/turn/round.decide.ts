import type { AgentEvent } from '../agent/agent.events';
import { requireNotStopped, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { sha256Digest } from '../shared/digest';
import { DomainError } from '../shared/domain-error';
import { requireValidId } from '../shared/validation';
import { closeOpenRoundEvents, roundCloseEvents } from './promotion';
import type { CloseRound, RecordRound } from './turn.commands';
import type { AssistantRoundRecorded } from './turn.events';
import type { RoundRecord, ToolCall } from './turn.state';
import { optionalRoundText, requireOpenTurn, requireTurn, validateToolCalls } from './turn.validation';

const sameCalls = (a: readonly ToolCall[], b: readonly ToolCall[]): boolean =>
  a.length === b.length && a.every((call, i) => call.tool_call_id === b[i].tool_call_id && call.name === b[i].name);

/** The round's text, or once closed (the state keeps no text then) its digest, equals `text`. */
const sameText = (round: RoundRecord, text: string): boolean =>
  round.text === null ? round.text_digest === sha256Digest(text) : round.text === text;

/** A round id is used once per agent; recording the very same round again records nothing. */
function alreadyRecorded(existing: RoundRecord, turnId: string, text: string, calls: ToolCall[]): boolean {
  if (existing.turn_id === turnId && sameText(existing, text) && sameCalls(existing.tool_calls, calls)) return true;
  throw new DomainError(
    'already_exists',
    { resource: 'round', round_id: existing.round_id, turn_id: existing.turn_id },
    `round ${existing.round_id} already exists`,
  );
}

/**
 * RecordRound (before its tools run): the turn's previous open round is closed first (promotion
 * evaluated), then AssistantRoundRecorded bound to the current focus.
 */
export function decideRecordRound(command: RecordRound, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const turn = requireOpenTurn(
    requireTurn(state, requireValidId(command.data.turn_id, 'turn_id')),
    'record a round in',
  );
  const roundId = requireValidId(command.data.round_id, 'round_id');
  const text = optionalRoundText(command.data.text, 'text');
  const toolCalls = validateToolCalls(command.data.tool_calls);
  const existing = state.rounds.get(roundId);
  if (existing !== undefined && alreadyRecorded(existing, turn.turn_id, text, toolCalls)) return [];
  requireNotStopped(state, 'record a round', { turn_id: turn.turn_id });
  const recorded: AssistantRoundRecorded = {
    type: 'AssistantRoundRecorded',
    data: {
      agent_id: agentId,
      turn_id: turn.turn_id,
      round_id: roundId,
      work_item_id: state.current_work_item_id,
      text,
      tool_calls: toolCalls,
      at: now,
    },
  };
  return [...closeOpenRoundEvents(state, agentId, turn.open_round_id, 'next_round', now), recorded];
}

/** CloseRound: RoundClosed with the promotion outcome; a closed round records nothing (the reply repeats its outcome). */
export function decideCloseRound(command: CloseRound, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const turn = requireTurn(state, requireValidId(command.data.turn_id, 'turn_id'));
  const roundId = requireValidId(command.data.round_id, 'round_id');
  const round = state.rounds.get(roundId);
  if (round === undefined || round.turn_id !== turn.turn_id) {
    throw new DomainError(
      'not_found',
      { resource: 'round', round_id: roundId, turn_id: turn.turn_id },
      `round ${roundId} not found in turn ${turn.turn_id}`,
    );
  }
  if (round.status === 'closed') return [];
  return roundCloseEvents(state, agentId, round, 'explicit', now);
}
