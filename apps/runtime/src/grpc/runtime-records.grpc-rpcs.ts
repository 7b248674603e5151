import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandEnvelope } from '@app/application';
import { ControlCommand } from '@app/application';
import { DropMessageCommand, EnqueueMessageCommand, ListMessagesQuery } from '@app/application';
import { CreateTaskCommand, ListTasksQuery, TaskHeartbeatCommand, UpdateTaskStatusCommand } from '@app/application';
import { CancelTimerCommand, CreateTimerCommand, ListTimersQuery } from '@app/application';
import type { RpcRequest } from '@app/contracts';
import { ControlDto, ListMessagesQueryDto } from '@app/contracts';
import { ListTasksQueryDto, TaskHeartbeatDto, UpdateTaskStatusDto } from '@app/contracts';
import { ListTimersQueryDto } from '@app/contracts';
import { GrpcService } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { requireId } from './grpc-envelope';
import { checked, createTaskInput, createTimerInput, enqueueMessageInput, listQuery } from './grpc-requests';
import { GrpcAgentQuery, GrpcCommand } from './grpc-rpc.decorators';

/** Timers, tasks, messages and control RPCs of `agent_runtime.v1.AgentRuntime`. */
@GrpcService(AGENT_RUNTIME_GRPC)
export class RuntimeRecordRpcs {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @GrpcCommand('CreateTimer')
  async createTimer(request: RpcRequest<'CreateTimer'>, envelope: CommandEnvelope) {
    return this.commands.execute(new CreateTimerCommand(envelope, await createTimerInput(request)));
  }

  @GrpcAgentQuery('ListTimers')
  async listTimers(request: RpcRequest<'ListTimers'>, agentId: string) {
    return this.queries.execute(
      new ListTimersQuery(
        agentId,
        await listQuery(ListTimersQueryDto, { status: request.status, limit: request.limit }),
      ),
    );
  }

  @GrpcCommand('CancelTimer')
  async cancelTimer(request: RpcRequest<'CancelTimer'>, envelope: CommandEnvelope) {
    return this.commands.execute(new CancelTimerCommand(envelope, requireId('timer_id', request.timer_id)));
  }

  @GrpcCommand('CreateTask')
  async createTask(request: RpcRequest<'CreateTask'>, envelope: CommandEnvelope) {
    return this.commands.execute(new CreateTaskCommand(envelope, await createTaskInput(request)));
  }

  @GrpcCommand('UpdateTaskStatus')
  async updateTaskStatus(request: RpcRequest<'UpdateTaskStatus'>, envelope: CommandEnvelope) {
    const taskId = requireId('task_id', request.task_id);
    const { status, detail } = await checked(UpdateTaskStatusDto, { status: request.status, detail: request.detail });
    return this.commands.execute(new UpdateTaskStatusCommand(envelope, taskId, status, detail));
  }

  @GrpcCommand('TaskHeartbeat')
  async taskHeartbeat(request: RpcRequest<'TaskHeartbeat'>, envelope: CommandEnvelope) {
    const taskId = requireId('task_id', request.task_id);
    const { expected_duration_ms } = await checked(TaskHeartbeatDto, {
      expected_duration_ms: request.expected_duration_ms,
    });
    return this.commands.execute(new TaskHeartbeatCommand(envelope, taskId, expected_duration_ms));
  }

  @GrpcAgentQuery('ListTasks')
  async listTasks(request: RpcRequest<'ListTasks'>, agentId: string) {
    const { filter, work_item_id, limit } = request;
    return this.queries.execute(
      new ListTasksQuery(agentId, await listQuery(ListTasksQueryDto, { filter, work_item_id, limit })),
    );
  }

  @GrpcCommand('EnqueueMessage')
  async enqueueMessage(request: RpcRequest<'EnqueueMessage'>, envelope: CommandEnvelope) {
    return this.commands.execute(new EnqueueMessageCommand(envelope, await enqueueMessageInput(request)));
  }

  @GrpcAgentQuery('ListMessages')
  async listMessages(request: RpcRequest<'ListMessages'>, agentId: string) {
    return this.queries.execute(
      new ListMessagesQuery(
        agentId,
        await listQuery(ListMessagesQueryDto, { status: request.status, limit: request.limit }),
      ),
    );
  }

  @GrpcCommand('DropMessage')
  async dropMessage(request: RpcRequest<'DropMessage'>, envelope: CommandEnvelope) {
    return this.commands.execute(new DropMessageCommand(envelope, requireId('message_id', request.message_id)));
  }

  @GrpcCommand('Control')
  async control(request: RpcRequest<'Control'>, envelope: CommandEnvelope) {
    const { action } = await checked(ControlDto, { action: request.action });
    return this.commands.execute(new ControlCommand(envelope, action));
  }
}
