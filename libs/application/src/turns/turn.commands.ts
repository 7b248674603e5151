import { Command } from '@nestjs/cqrs';
import type {
  HeartbeatReply,
  RecordRoundReply,
  RoundCloseReply,
  TerminalKind,
  ToolCall,
  TurnEndReply,
} from '@app/domain';
import type { CommandEnvelope, WithRevision } from '../agents/agent-command.service';

// The agent host's side of a model turn (opened by `POST activations`): one command class per route.

/** Renews the lease from now (by default for the turn's own lease_ttl_ms); hands over queued interject operator prompts (now `interjected`). */
export class TurnHeartbeatCommand extends Command<WithRevision<HeartbeatReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly turnId: string,
    readonly leaseTtlMs?: number,
  ) {
    super();
  }
}

export interface RecordRoundInput {
  round_id: string;
  text?: string;
  tool_calls?: ToolCall[];
}

/** Records an assistant round before its tools run (closing the turn's previous open round). */
export class RecordRoundCommand extends Command<WithRevision<RecordRoundReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly turnId: string,
    readonly input: RecordRoundInput,
  ) {
    super();
  }
}

/** Closes a round: report promotion is evaluated once; closing it again repeats the outcome. */
export class CloseRoundCommand extends Command<WithRevision<RoundCloseReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly turnId: string,
    readonly roundId: string,
  ) {
    super();
  }
}

export interface TurnTerminalInput {
  terminal_kind: TerminalKind;
  last_assistant_message?: string;
}

/** Ends the turn (and its open round) and settles its message. */
export class EndTurnCommand extends Command<WithRevision<TurnEndReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly turnId: string,
    readonly input: TurnTerminalInput,
  ) {
    super();
  }
}
