import type { AgentState } from '../agent/agent.state';
import { MESSAGE_BODY_MAX_LENGTH, requireLabel } from '../queue/message.validation';
import { DomainError, validationFailed } from '../shared/domain-error';
import { charLength } from '../shared/text';
import { requireIntegerInRange, requireValidId } from '../shared/validation';
import type { ToolCall, TurnRecord } from './turn.state';

/** A lease lasts 1 s .. 1 h; the host renews it with heartbeats. */
export const LEASE_TTL_MIN_MS = 1_000;
export const LEASE_TTL_MAX_MS = 3_600_000;
export const MAX_TOOL_CALLS_PER_ROUND = 100;
/** Round text and last assistant message: the limit of a message body. */
export const ROUND_TEXT_MAX_LENGTH = MESSAGE_BODY_MAX_LENGTH;

export function requireLeaseTtl(value: unknown): number {
  return requireIntegerInRange(value, 'lease_ttl_ms', LEASE_TTL_MIN_MS, LEASE_TTL_MAX_MS);
}

/** Absent -> ''; otherwise trimmed text (possibly empty: an empty round is still a round). */
export function optionalRoundText(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw validationFailed(field, 'must_be_string');
  const text = value.trim();
  if (charLength(text) > ROUND_TEXT_MAX_LENGTH)
    throw validationFailed(field, 'too_long', { max_length: ROUND_TEXT_MAX_LENGTH });
  return text;
}

function requireToolCall(value: unknown, index: number): ToolCall {
  if (typeof value !== 'object' || value === null) throw validationFailed(`tool_calls[${index}]`, 'must_be_object');
  const call = value as Record<string, unknown>;
  return {
    tool_call_id: requireValidId(call.tool_call_id, `tool_calls[${index}].tool_call_id`),
    name: requireLabel(call.name, `tool_calls[${index}].name`),
  };
}

/** At most 100 calls with distinct ids, each `{tool_call_id, name}`. */
export function validateToolCalls(value: unknown): ToolCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw validationFailed('tool_calls', 'must_be_array');
  if (value.length > MAX_TOOL_CALLS_PER_ROUND)
    throw validationFailed('tool_calls', 'too_many', { max_items: MAX_TOOL_CALLS_PER_ROUND });
  const calls = value.map(requireToolCall);
  const ids = new Set(calls.map((call) => call.tool_call_id));
  if (ids.size !== calls.length) throw validationFailed('tool_calls', 'duplicate_tool_call_id');
  return calls;
}

export function requireTurn(state: AgentState, turnId: string): TurnRecord {
  const turn = state.turns.get(turnId);
  if (turn === undefined)
    throw new DomainError('not_found', { resource: 'turn', turn_id: turnId }, `turn ${turnId} not found`);
  return turn;
}

/** The turn must still be open (heartbeats and rounds of an ended turn are refused: the host lost it). */
export function requireOpenTurn(turn: TurnRecord, action: string): TurnRecord {
  if (turn.status !== 'open') {
    throw new DomainError(
      'invariant_violated',
      { rule: 'turn_not_open', turn_id: turn.turn_id, terminal_kind: turn.terminal?.terminal_kind ?? null, action },
      `turn ${turn.turn_id} has ended`,
    );
  }
  return turn;
}
