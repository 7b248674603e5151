import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type CreateTask,
  renderCreateTaskReply,
  renderTaskHeartbeatReply,
  renderUpdateTaskStatusReply,
  type TaskHeartbeat,
  type UpdateTaskStatus,
} from '@app/domain';
import { CLOCK, type Clock } from '@app/core';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';
import { RECORD_QUERIES, type RecordQueries } from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import { generatedId } from '../waiting/generated-ids';
import { CreateTaskCommand, ListTasksQuery, TaskHeartbeatCommand, UpdateTaskStatusCommand } from './task.commands';

@CommandHandler(CreateTaskCommand)
export class CreateTaskHandler implements ICommandHandler<CreateTaskCommand> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(APPLICATION_SETTINGS) private readonly settings: ApplicationSettings,
  ) {}

  execute({ envelope, input }: CreateTaskCommand) {
    const defaults = this.settings.taskExpectedDurations ?? {};
    const fallback = typeof input.kind === 'string' ? (defaults[input.kind.trim()] ?? defaults['*']) : undefined;
    const data = {
      ...input,
      task_id: input.task_id ?? generatedId(envelope, 'task'),
      ...(input.expected_duration_ms === undefined && fallback !== undefined && { expected_duration_ms: fallback }),
    };
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

@CommandHandler(TaskHeartbeatCommand)
export class TaskHeartbeatHandler implements ICommandHandler<TaskHeartbeatCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, taskId, expectedDurationMs }: TaskHeartbeatCommand) {
    const data = {
      task_id: taskId,
      ...(expectedDurationMs !== undefined && { expected_duration_ms: expectedDurationMs }),
    };
    const command: TaskHeartbeat = { type: 'TaskHeartbeat', data, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, renderTaskHeartbeatReply);
  }
}

@QueryHandler(ListTasksQuery)
export class ListTasksHandler implements IQueryHandler<ListTasksQuery> {
  constructor(
    @Inject(RECORD_QUERIES) private readonly records: RecordQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ agentId, query }: ListTasksQuery) {
    return this.records.tasks(agentId, { ...query, now: query.now ?? this.clock.now().toISOString() });
  }
}

export const TASK_HANDLERS = [CreateTaskHandler, UpdateTaskStatusHandler, TaskHeartbeatHandler, ListTasksHandler];
