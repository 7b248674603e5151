import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Control, type ControlAction, type ControlReply, renderControlReply } from '@app/domain';
import { AgentCommandService, type CommandEnvelope, type WithRevision } from '../agents/agent-command.service';

/** start | stop | pause | resume; an action that changes nothing records nothing (`changed: false`). */
export class ControlCommand extends Command<WithRevision<ControlReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly action: ControlAction,
  ) {
    super();
  }
}

@CommandHandler(ControlCommand)
export class ControlHandler implements ICommandHandler<ControlCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, action }: ControlCommand) {
    const command: Control = { type: 'Control', data: { action }, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, renderControlReply);
  }
}
