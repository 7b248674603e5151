import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type CreateTask,
  renderCreateTaskReply,
  renderUpdateTaskStatusReply,
  type UpdateTaskStatus,
} from '@app/domain';
import { RECORD_QUERIES, type RecordQueries } from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import { generatedId } from '../waiting/generated-ids';
import { CreateTaskCommand, ListTasksQuery, UpdateTaskStatusCommand } from './task.commands';

@CommandHandler(CreateTaskCommand)
export class CreateTaskHandler implements ICommandHandler<CreateTaskCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, input }: CreateTaskCommand) {
    const data = { ...input, task_id: input.task_id ?? generatedId(envelope, 'task') };
    const command: CreateTask = { type: 'CreateTask', data, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, renderCreateTaskReply);
  }
}

@CommandHandler(UpdateTaskStatusCommand)
export class UpdateTaskStatusHandler implements ICommandHandler<UpdateTaskStatusCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, taskId, status, detail }: UpdateTaskStatusCommand) {
    // message_id names the task_result a terminal status queues (unused otherwise).
    const data = { task_id: taskId, status, detail, message_id: generatedId(envelope, 'msg') };
    const command: UpdateTaskStatus = { type: 'UpdateTaskStatus', data, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, renderUpdateTaskStatusReply);
  }
}

@QueryHandler(ListTasksQuery)
export class ListTasksHandler implements IQueryHandler<ListTasksQuery> {
  constructor(@Inject(RECORD_QUERIES) private readonly records: RecordQueries) {}

  execute({ agentId, query }: ListTasksQuery) {
    return this.records.tasks(agentId, query);
  }
}

export const TASK_HANDLERS = [CreateTaskHandler, UpdateTaskStatusHandler, ListTasksHandler];
