import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateTaskCommand,
  ListTasksQuery,
  TaskHeartbeatCommand,
  UpdateTaskStatusCommand,
  ReadRoles,
  OperationRoles,
} from '@app/application';
import {
  parseLimit,
  CreateTaskDto,
  ListTasksQueryDto,
  TaskHeartbeatDto,
  UpdateTaskStatusDto,
  ApiErrors,
  ApiReply,
} from '@app/contracts';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id/tasks')
export class TasksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @OperationRoles('CreateTask')
  @Post()
  @ApiOperation({ summary: 'CreateTask (201)' })
  @ApiReply(201, 'TaskReply')
  @ApiErrors({
    404: 'not_found: unknown agent or work item',
    409: 'conflict: the task_id is taken (details.reason: already_exists), or a stale expected_revision',
    422: 'invariant_violated: the work item is completed; idempotency_key_reused',
  })
  create(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: CreateTaskDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new CreateTaskCommand(envelopeOf(agentId, context, expected_revision), input));
  }

  @OperationRoles('UpdateTaskStatus')
  @Post(':task_id/status')
  @HttpCode(200)
  @ApiOperation({
    summary: 'UpdateTaskStatus: forward only; a stale status is a warning; a terminal one queues the task_result',
  })
  @ApiReply(200, 'TaskReply', 'a stale status is 200 with the warning stale_task_status_ignored and no change')
  @ApiErrors({ 404: 'not_found: unknown agent or task' })
  status(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('task_id', IdParamPipe) taskId: string,
    @Body() body: UpdateTaskStatusDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new UpdateTaskStatusCommand(
        envelopeOf(agentId, context, body.expected_revision),
        taskId,
        body.status,
        body.detail,
      ),
    );
  }

  @Post(':task_id/heartbeat')
  @OperationRoles('TaskHeartbeat')
  @HttpCode(200)
  @ApiOperation({ summary: "TaskHeartbeat: the executor renews the task's lease from now" })
  @ApiReply(200, 'TaskReply', 'the lease renewed from now')
  @ApiErrors({
    400: 'validation_failed: the task has no lease and none is given, or another malformed field',
    404: 'not_found: unknown agent or task',
    422: 'invariant_violated: the task is terminal; idempotency_key_reused',
  })
  heartbeat(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('task_id', IdParamPipe) taskId: string,
    @Body() body: TaskHeartbeatDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new TaskHeartbeatCommand(envelopeOf(agentId, context, body.expected_revision), taskId, body.expected_duration_ms),
    );
  }

  @ReadRoles()
  @Get()
  @ApiOperation({ summary: 'ListTasks: newest first, each with overdue (past its expected end)' })
  @ApiReply(200, 'TaskList', 'newest first, each with terminal and overdue')
  list(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListTasksQueryDto) {
    const { filter, work_item_id, limit } = query;
    return this.queries.execute(new ListTasksQuery(agentId, { filter, work_item_id, limit: parseLimit(limit) }));
  }
}
