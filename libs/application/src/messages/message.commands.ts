import { Command, Query } from '@nestjs/cqrs';
import type {
  DropMessageReply,
  EnqueueMessageReply,
  ListReply,
  MessageBody,
  MessageKind,
  MessagePriority,
  MessageView,
} from '@app/domain';
import type { MessageListQuery } from '@app/read-models';
import type { CommandEnvelope, WithRevision } from '../agents/agent-command.service';

/** A caller's message: no authority here, its kind and the caller's role decide it (message-authority.ts). */
export interface EnqueueMessageInput {
  kind: MessageKind;
  body: MessageBody;
  priority?: MessagePriority;
  origin?: string;
  work_item_id?: string;
  task_id?: string;
  correlation_id?: string;
}

export class EnqueueMessageCommand extends Command<WithRevision<EnqueueMessageReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly input: EnqueueMessageInput,
  ) {
    super();
  }
}

/** Operator action: drops a queued message (dropping a dropped one records nothing). */
export class DropMessageCommand extends Command<WithRevision<DropMessageReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly messageId: string,
  ) {
    super();
  }
}

/** Default status `queued`: the queue in the order the scheduler takes it. */
export class ListMessagesQuery extends Query<ListReply<MessageView>> {
  constructor(
    readonly agentId: string,
    readonly query: MessageListQuery,
  ) {
    super();
  }
}
