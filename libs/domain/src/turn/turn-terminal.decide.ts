import type { AgentEvent } from '../agent/agent.events';
import { requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { compareInstants } from '../shared/time';
import { requireOneOf, requireValidId } from '../shared/validation';
import { closeOpenRoundEvents } from './promotion';
import { recoveryEvents } from './recovery';
import type { ExpireLease, TurnTerminalCommand } from './turn.commands';
import type { BriefRecorded, TurnTerminal } from './turn.events';
import { TERMINAL_KINDS, type TerminalKind, turnBriefIdFor, type TurnRecord } from './turn.state';
import type { RecoveryCause } from './turn.state';
import { optionalRoundText, requireTurn } from './turn.validation';

type Ending = { kind: TerminalKind; last: string | null; cause: RecoveryCause };

/** The turn's own brief: a result for a completed turn (unless a promotion delivered it), a failure for failed or over-budget ones. */
function finalBrief(
  agentId: string,
  turn: TurnRecord,
  ending: Ending,
  suppressed: boolean,
  at: string,
): BriefRecorded[] {
  const text = finalBriefText(turn, ending);
  if (text === null || (ending.kind === 'completed' && suppressed)) return [];
  return [
    {
      type: 'BriefRecorded',
      data: {
        agent_id: agentId,
        brief_id: turnBriefIdFor(turn.turn_id),
        kind: ending.kind === 'completed' ? 'result' : 'failure',
        text,
        work_item_id: turn.work_item_id,
        turn_id: turn.turn_id,
        round_id: null,
        at,
      },
    },
  ];
}

function finalBriefText(turn: TurnRecord, { kind, last }: Ending): string | null {
  switch (kind) {
    case 'completed':
      return last;
    case 'failed':
      return last ?? `Turn ${turn.turn_id} failed.`;
    case 'baseline_over_budget':
      return `Turn ${turn.turn_id} ended: its baseline context is over budget.${last === null ? '' : `\n\n${last}`}`;
    default:
      return null;
  }
}

/** How the turn's message is settled: processed (aborted for an aborted turn); an interrupted one is recovered. */
function settleMessage(state: AgentState, agentId: string, turn: TurnRecord, ending: Ending, at: string): AgentEvent[] {
  const message = state.messages.get(turn.message_id);
  if (message?.status !== 'dequeued') return [];
  if (ending.kind === 'interrupted') return recoveryEvents(state, agentId, turn, message, ending.cause, at);
  const data = { agent_id: agentId, message_id: message.id, turn_id: turn.turn_id, at };
  // A turn the host ended because the agent was paused: its message is replayed on resume, never lost.
  if (ending.kind === 'aborted' && state.posture === 'paused') {
    return [{ type: 'MessageRequeued', data: { ...data, cause: 'paused' } }];
  }
  return [ending.kind === 'aborted' ? { type: 'MessageAborted', data } : { type: 'MessageProcessed', data }];
}

/** [open round closed (+ promotion), TurnTerminal, message settled, final brief]. */
function endTurnEvents(state: AgentState, agentId: string, turn: TurnRecord, ending: Ending, at: string): AgentEvent[] {
  const closing = closeOpenRoundEvents(state, agentId, turn.open_round_id, 'turn_terminal', at);
  const suppressed = turn.promoted_round_ids.length > 0 || closing.some((e) => e.type === 'WorkItemReportPromoted');
  const terminal: TurnTerminal = {
    type: 'TurnTerminal',
    data: {
      agent_id: agentId,
      turn_id: turn.turn_id,
      turn_index: turn.turn_index,
      message_id: turn.message_id,
      work_item_id: turn.work_item_id,
      terminal_kind: ending.kind,
      last_assistant_message: ending.last,
      at,
    },
  };
  return [
    ...closing,
    terminal,
    ...settleMessage(state, agentId, turn, ending, at),
    ...finalBrief(agentId, turn, ending, suppressed, at),
  ];
}

/** TurnTerminal: closes an open turn; the same terminal again records nothing, a different one is refused. */
export function decideTurnTerminal(command: TurnTerminalCommand, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const turn = requireTurn(state, requireValidId(command.data.turn_id, 'turn_id'));
  const kind = requireOneOf(command.data.terminal_kind, 'terminal_kind', TERMINAL_KINDS);
  const text = optionalRoundText(command.data.last_assistant_message, 'last_assistant_message');
  if (turn.status === 'closed') {
    if (turn.terminal?.terminal_kind === kind) return [];
    throw new DomainError('invariant_violated', {
      rule: 'turn_already_terminal',
      turn_id: turn.turn_id,
      terminal_kind: turn.terminal?.terminal_kind ?? null,
    });
  }
  return endTurnEvents(state, agentId, turn, { kind, last: text === '' ? null : text, cause: 'host_interrupted' }, now);
}

/** ExpireLease (the scheduler, once the lease has run out): the turn ends interrupted and its message is recovered. */
export function decideExpireLease(command: ExpireLease, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const turn = requireTurn(state, requireValidId(command.data.turn_id, 'turn_id'));
  if (turn.status === 'closed') return [];
  if (compareInstants(now, turn.lease_expires_at) < 0) {
    throw new DomainError('invariant_violated', {
      rule: 'lease_not_expired',
      turn_id: turn.turn_id,
      lease_expires_at: turn.lease_expires_at,
    });
  }
  return endTurnEvents(state, agentId, turn, { kind: 'interrupted', last: null, cause: 'lease_expired' }, now);
}

/** The open turn whose lease has run out at `now` (the worker issues ExpireLease for it), or null. */
export function expiredTurn(state: AgentState, now: string): TurnRecord | null {
  const turn = state.turns.get(state.open_turn_id);
  return turn?.status === 'open' && compareInstants(turn.lease_expires_at, now) <= 0 ? turn : null;
}
