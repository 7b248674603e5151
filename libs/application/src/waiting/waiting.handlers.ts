import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type CancelWaitingIntent,
  DomainError,
  renderCancelWaitingIntentReply,
  renderSubmitWakeHintReply,
  renderTriggerWaitingIntentReply,
  type SubmitWakeHint,
} from '@app/domain';
import { AgentCommandService } from '../agents/agent-command.service';
import { generatedId } from './generated-ids';
import { renderWaitForWithToken, triggerCommand, waitForCommand } from './waiting.builders';
import {
  CancelWaitingIntentCommand,
  SubmitWakeHintCommand,
  TriggerWaitingIntentCommand,
  WaitForCommand,
} from './waiting.commands';

@CommandHandler(WaitForCommand)
export class WaitForHandler implements ICommandHandler<WaitForCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, workItemId, input }: WaitForCommand) {
    const { command, token } = waitForCommand(envelope, this.agents.meta(envelope), workItemId, input);
    return this.agents.run(envelope, command, renderWaitForWithToken(token));
  }
}

@CommandHandler(TriggerWaitingIntentCommand)
export class TriggerWaitingIntentHandler implements ICommandHandler<TriggerWaitingIntentCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  async execute({ envelope, intentId, input }: TriggerWaitingIntentCommand) {
    const command = triggerCommand(envelope, this.agents.meta(envelope), intentId, input, 'api');
    const reply = await this.agents.run(envelope, command, renderTriggerWaitingIntentReply);
    // The domain recorded nothing and says why (decision 0004 §9): docs/api.md's 409 with details.status.
    if (reply.status !== 'triggered') {
      throw new DomainError(
        'conflict',
        { status: reply.status, waiting_intent_id: intentId },
        `waiting intent ${intentId} is ${reply.status}: nothing recorded`,
      );
    }
    return reply;
  }
}

@CommandHandler(CancelWaitingIntentCommand)
export class CancelWaitingIntentHandler implements ICommandHandler<CancelWaitingIntentCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, intentId, note }: CancelWaitingIntentCommand) {
    const command: CancelWaitingIntent = {
      type: 'CancelWaitingIntent',
      data: { intent_id: intentId, note },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, renderCancelWaitingIntentReply);
  }
}

@CommandHandler(SubmitWakeHintCommand)
export class SubmitWakeHintHandler implements ICommandHandler<SubmitWakeHintCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, input }: SubmitWakeHintCommand) {
    const data = { ...input, message_id: generatedId(envelope, 'msg') };
    const command: SubmitWakeHint = { type: 'SubmitWakeHint', data, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, renderSubmitWakeHintReply);
  }
}

export const WAITING_COMMAND_HANDLERS = [
  WaitForHandler,
  TriggerWaitingIntentHandler,
  CancelWaitingIntentHandler,
  SubmitWakeHintHandler,
];
