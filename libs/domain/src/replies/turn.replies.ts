import type { AgentEvent } from '../agent/agent.events';
import type { AgentState, Posture } from '../agent/agent.state';
import { cancelRequested } from '../turn/start-turn.decide';
import type { Warning } from '../shared/warnings';
import type { CloseRound, Heartbeat, RecordRound, TurnTerminalCommand } from '../turn/turn.commands';
import type { RecoveryClassified, RoundClosed } from '../turn/turn.events';
import { type Promotion, type RecoveryClassification, turnBriefIdFor } from '../turn/turn.state';
import { optionalRoundText } from '../turn/turn.validation';
import { found } from './found';
import { DEFAULT_REMINDER_SETTINGS, type Reminder, type ReminderSettings, remindersOf } from '../views/reminders';
import { messageView, type MessageView, toMessageView } from '../views/message.view';
import {
  type ActivationTurnView,
  type BriefView,
  cloneWarning,
  type RoundView,
  toActivationTurnView,
  toBriefView,
  toRoundView,
  toTurnView,
  type TurnView,
} from '../views/turn.view';

// Reply bodies without `revision` (the app adds it).
/** `posture` and `cancel_requested` (after stop or pause): the host ends the turn at its next round boundary. */
export type HeartbeatReply = {
  turn: ActivationTurnView;
  posture: Posture;
  cancel_requested: boolean;
  interjections: MessageView[];
  warnings: Warning[];
};
/** docs/api.md round close reply (also the outcome of a round closed by the next round or the terminal). */
export type RoundCloseReply = { promotion: Promotion | null; warnings: Warning[] };

/** What the round-close, round and heartbeat replies carry besides (docs/domain-contract.md §2, Reminders). */
export type WithReminders<R> = R & { reminders: Reminder[] };

/** A renderer whose reply also carries the agent's reminders after the command, at these thresholds. */
export function withReminders<C, R>(
  render: (command: C, before: AgentState, after: AgentState, events: readonly AgentEvent[]) => R,
  settings: ReminderSettings = DEFAULT_REMINDER_SETTINGS,
): (command: C, before: AgentState, after: AgentState, events: readonly AgentEvent[]) => WithReminders<R> {
  return (command, before, after, events) => ({
    ...render(command, before, after, events),
    reminders: remindersOf(after, settings),
  });
}
export type RecordRoundReply = {
  round: RoundView;
  closed_round: (RoundCloseReply & { round_id: string }) | null;
  warnings: Warning[];
};
export type TurnEndReply = {
  turn: TurnView;
  message: MessageView | null;
  brief: BriefView | null;
  closed_round: (RoundCloseReply & { round_id: string }) | null;
  recovery: RecoveryClassification | null;
  warnings: Warning[];
};

const turnOf = (state: AgentState, id: string) => found(state.turns.get(id), 'turn', id);

/** The outcome of the round a decision closed (promotion and warnings), from the stored round. */
function closedRound(
  after: AgentState,
  events: readonly AgentEvent[],
): (RoundCloseReply & { round_id: string }) | null {
  const closed = events.find((e): e is RoundClosed => e.type === 'RoundClosed');
  return closed ? { round_id: closed.data.round_id, ...roundOutcome(after, closed.data.round_id) } : null;
}

function roundOutcome(state: AgentState, roundId: string): RoundCloseReply {
  const round = found(state.rounds.get(roundId), 'round', roundId);
  return { promotion: round.promotion && { ...round.promotion }, warnings: round.warnings.map(cloneWarning) };
}

export function renderHeartbeatReply(
  command: Heartbeat,
  _b: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): HeartbeatReply {
  const interjections = newEvents
    .filter((e) => e.type === 'MessageInterjected')
    .map((e) => messageView(after, (e.data as { message_id: string }).message_id))
    .filter((m): m is MessageView => m !== null);
  return {
    turn: toActivationTurnView(turnOf(after, command.data.turn_id)),
    posture: after.posture,
    cancel_requested: cancelRequested(after),
    interjections,
    warnings: [],
  };
}

export function renderRecordRoundReply(
  command: RecordRound,
  _b: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): RecordRoundReply {
  const record = found(after.rounds.get(command.data.round_id), 'round', command.data.round_id);
  // A repeat of a closed round (the state keeps its digest only) carries the very text recorded.
  const round = toRoundView(record, record.text ?? optionalRoundText(command.data.text, 'text'));
  const closed = closedRound(after, newEvents);
  return { round, closed_round: closed, warnings: closed?.warnings ?? [] };
}

/** Closing a closed round repeats its outcome (the promotion happened once). */
export function renderCloseRoundReply(
  command: CloseRound,
  _b: AgentState,
  after: AgentState,
  _e: readonly AgentEvent[],
): RoundCloseReply {
  return roundOutcome(after, command.data.round_id);
}

/** The turn's message; processed by this very command, its body is the state's before it (null for a no-op repeat). */
function turnMessage(before: AgentState, after: AgentState, messageId: string): MessageView | null {
  const message = after.messages.get(messageId);
  if (message === undefined) return null;
  return toMessageView(message, message.body ?? before.messages.get(messageId)?.body ?? null);
}

function turnEndReply(
  before: AgentState,
  after: AgentState,
  turnId: string,
  newEvents: readonly AgentEvent[],
): TurnEndReply {
  const turn = turnOf(after, turnId);
  const brief = after.briefs.get(turnBriefIdFor(turnId));
  const recovery = newEvents.find((e): e is RecoveryClassified => e.type === 'RecoveryClassified');
  const closed = closedRound(after, newEvents);
  return {
    turn: toTurnView(turn),
    message: turnMessage(before, after, turn.message_id),
    brief: brief ? toBriefView(brief) : null,
    closed_round: closed,
    recovery: recovery?.data.classification ?? turn.recovery,
    warnings: closed?.warnings ?? [],
  };
}

export function renderTurnTerminalReply(
  command: TurnTerminalCommand,
  before: AgentState,
  after: AgentState,
  newEvents: readonly AgentEvent[],
): TurnEndReply {
  return turnEndReply(before, after, command.data.turn_id, newEvents);
}
