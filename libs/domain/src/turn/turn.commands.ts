import type { CommandMeta } from '../shared/command-meta';
import type { TerminalKind, ToolCall } from './turn.state';

/**
 * Opens a model turn on the message the scheduler picked (issued by an activation): the message
 * is dequeued and the turn is bound to the current focus, with a lease of `lease_ttl_ms`.
 */
export type StartTurn = {
  type: 'StartTurn';
  data: { turn_id: string; message_id: string; lease_ttl_ms: number };
  meta: CommandMeta;
};

/** Renews the lease; hands over queued interject-priority operator prompts (marked interjected). */
export type Heartbeat = { type: 'Heartbeat'; data: { turn_id: string; lease_ttl_ms: number }; meta: CommandMeta };

/** Records an assistant round before its tools run; closes the turn's previous open round first. */
export type RecordRound = {
  type: 'RecordRound';
  data: { turn_id: string; round_id: string; text?: string | null; tool_calls?: ToolCall[] };
  meta: CommandMeta;
};

export type CloseRound = { type: 'CloseRound'; data: { turn_id: string; round_id: string }; meta: CommandMeta };

/** Closes the turn (and its last round) and settles its message. */
export type TurnTerminalCommand = {
  type: 'TurnTerminal';
  data: { turn_id: string; terminal_kind: TerminalKind; last_assistant_message?: string | null };
  meta: CommandMeta;
};

/** The scheduler saw the lease expire (the host died): the turn ends interrupted and its message is recovered. */
export type ExpireLease = { type: 'ExpireLease'; data: { turn_id: string }; meta: CommandMeta };

export type TurnCommand = StartTurn | Heartbeat | RecordRound | CloseRound | TurnTerminalCommand | ExpireLease;
