import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type CancelTimer, type CreateTimer, renderCancelTimerReply, renderCreateTimerReply } from '@app/domain';
import { CLOCK, type Clock } from '@app/core';
import { RECORD_QUERIES, type RecordQueries } from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import { generatedId } from '../waiting/generated-ids';
import { CancelTimerCommand, CreateTimerCommand, ListTimersQuery } from './timer.commands';

@CommandHandler(CreateTimerCommand)
export class CreateTimerHandler implements ICommandHandler<CreateTimerCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, input }: CreateTimerCommand) {
    const command: CreateTimer = {
      type: 'CreateTimer',
      data: { ...input, timer_id: generatedId(envelope, 'timer') },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, renderCreateTimerReply);
  }
}

@CommandHandler(CancelTimerCommand)
export class CancelTimerHandler implements ICommandHandler<CancelTimerCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, timerId }: CancelTimerCommand) {
    const command: CancelTimer = { type: 'CancelTimer', data: { timer_id: timerId }, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, renderCancelTimerReply);
  }
}

@QueryHandler(ListTimersQuery)
export class ListTimersHandler implements IQueryHandler<ListTimersQuery> {
  constructor(
    @Inject(RECORD_QUERIES) private readonly records: RecordQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ agentId, query }: ListTimersQuery) {
    return this.records.timers(agentId, { ...query, now: this.clock.now().toISOString() });
  }
}

export const TIMER_HANDLERS = [CreateTimerHandler, CancelTimerHandler, ListTimersHandler];
