import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type CloseRound,
  type Heartbeat,
  type RecordRound,
  renderCloseRoundReply,
  renderHeartbeatReply,
  renderRecordRoundReply,
  renderTurnTerminalReply,
  type TurnTerminalCommand,
  turnView,
  withReminders,
} from '@app/domain';
import { AgentCommandService } from '../agents/agent-command.service';
import { DEFAULT_LEASE_TTL_MS } from '../scheduler/activation';
import { CloseRoundCommand, EndTurnCommand, RecordRoundCommand, TurnHeartbeatCommand } from './turn.commands';

// Thin handlers: the domain command with the clock's now and the idempotency key, the domain renderer.

/** Without a lease in the request, the turn keeps the one it has (an unknown turn is refused by the domain). */
async function renewedLeaseTtl(agents: AgentCommandService, agentId: string, turnId: string): Promise<number> {
  const { state } = await agents.load(agentId);
  return turnView(state, turnId)?.lease_ttl_ms ?? DEFAULT_LEASE_TTL_MS;
}

@CommandHandler(TurnHeartbeatCommand)
export class TurnHeartbeatHandler implements ICommandHandler<TurnHeartbeatCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  async execute({ envelope, turnId, leaseTtlMs }: TurnHeartbeatCommand) {
    const data = {
      turn_id: turnId,
      lease_ttl_ms: leaseTtlMs ?? (await renewedLeaseTtl(this.agents, envelope.agentId, turnId)),
    };
    const command: Heartbeat = { type: 'Heartbeat', data, meta: this.agents.meta(envelope) };
    // A lease read from the turn is the server's, not the request's: it is not fingerprinted.
    const unfingerprinted = leaseTtlMs === undefined ? ['lease_ttl_ms'] : [];
    return this.agents.run(envelope, command, withReminders(renderHeartbeatReply, this.agents.reminders), {
      unfingerprinted,
    });
  }
}

@CommandHandler(RecordRoundCommand)
export class RecordRoundHandler implements ICommandHandler<RecordRoundCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, turnId, input }: RecordRoundCommand) {
    const command: RecordRound = {
      type: 'RecordRound',
      data: { turn_id: turnId, ...input },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, withReminders(renderRecordRoundReply, this.agents.reminders));
  }
}

@CommandHandler(CloseRoundCommand)
export class CloseRoundHandler implements ICommandHandler<CloseRoundCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, turnId, roundId }: CloseRoundCommand) {
    const command: CloseRound = {
      type: 'CloseRound',
      data: { turn_id: turnId, round_id: roundId },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, withReminders(renderCloseRoundReply, this.agents.reminders));
  }
}

@CommandHandler(EndTurnCommand)
export class EndTurnHandler implements ICommandHandler<EndTurnCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  async execute({ envelope, turnId, input }: EndTurnCommand) {
    const command: TurnTerminalCommand = {
      type: 'TurnTerminal',
      data: { turn_id: turnId, ...input },
      meta: this.agents.meta(envelope),
    };
    const reply = await this.agents.run(envelope, command, renderTurnTerminalReply);
    // A no-op repeat on a closed turn: the state keeps no body of the processed message, its event does.
    if (reply.message?.body !== null) return reply;
    return { ...reply, message: await this.agents.withMessageBody(envelope.agentId, reply.message) };
  }
}

export const TURN_HANDLERS = [TurnHeartbeatHandler, RecordRoundHandler, CloseRoundHandler, EndTurnHandler];
