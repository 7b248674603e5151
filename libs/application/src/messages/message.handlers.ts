import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type DropMessage, type EnqueueMessage, renderDropMessageReply, renderEnqueueMessageReply } from '@app/domain';
import { RECORD_QUERIES, type RecordQueries } from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import { generatedId } from '../waiting/generated-ids';
import { authorityOf } from './message-authority';
import { DropMessageCommand, EnqueueMessageCommand, ListMessagesQuery } from './message.commands';

@CommandHandler(EnqueueMessageCommand)
export class EnqueueMessageHandler implements ICommandHandler<EnqueueMessageCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, input }: EnqueueMessageCommand) {
    const authority = authorityOf(input.kind, envelope.caller);
    const data = { ...input, message_id: generatedId(envelope, 'msg'), authority };
    const command: EnqueueMessage = { type: 'EnqueueMessage', data, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, renderEnqueueMessageReply);
  }
}

@CommandHandler(DropMessageCommand)
export class DropMessageHandler implements ICommandHandler<DropMessageCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, messageId }: DropMessageCommand) {
    const command: DropMessage = {
      type: 'DropMessage',
      data: { message_id: messageId },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, renderDropMessageReply);
  }
}

@QueryHandler(ListMessagesQuery)
export class ListMessagesHandler implements IQueryHandler<ListMessagesQuery> {
  constructor(@Inject(RECORD_QUERIES) private readonly records: RecordQueries) {}

  execute({ agentId, query }: ListMessagesQuery) {
    return this.records.messages(agentId, query);
  }
}

export const MESSAGE_HANDLERS = [EnqueueMessageHandler, DropMessageHandler, ListMessagesHandler];
