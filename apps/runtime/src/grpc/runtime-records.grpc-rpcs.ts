import { Injectable } from '@nestjs/common';
import {
  ControlCommand, DropMessageCommand, EnqueueMessageCommand, ListMessagesQuery, CreateTaskCommand, ListTasksQuery, UpdateTaskStatusCommand,
  CancelTimerCommand, CreateTimerCommand, ListTimersQuery,
} from '@app/application';
import type * as Rpc from '@app/contracts';
import { ControlDto, ListMessagesQueryDto, ListTasksQueryDto, UpdateTaskStatusDto, ListTimersQueryDto } from '@app/contracts';
import { GrpcUnary, type GrpcCallContext } from '@app/platform';
import { commandEnvelopeOf, requireId } from './grpc-envelope';
import { commandReply, toControlReply, toList, toQueuedMessage, toTask, toTimer } from './grpc-waiting-replies';
import { checked, createTaskInput, createTimerInput, enqueueMessageInput, listQuery } from './grpc-waiting-requests';
import { WaitingPlaneRpcs } from './waiting-plane.grpc-rpcs';

/** Timers, tasks, messages and control RPCs of `agent_runtime.v1.AgentRuntime` (see WaitingPlaneRpcs). */
@Injectable()
export class RuntimeRecordRpcs extends WaitingPlaneRpcs {
  @GrpcUnary('CreateTimer')
  async createTimer(request: Rpc.CreateTimerRequest, context: GrpcCallContext): Promise<Rpc.TimerReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const reply = await this.commands.execute(new CreateTimerCommand(envelope, await createTimerInput(request)));
    return commandReply(reply, { timer: toTimer(reply.timer) });
  }

  @GrpcUnary('ListTimers')
  async listTimers(request: Rpc.ListTimersRequest): Promise<Rpc.ListTimersReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const query = await listQuery(ListTimersQueryDto, { status: request.status, limit: request.limit });
    return toList(await this.queries.execute(new ListTimersQuery(agentId, query)), toTimer);
  }

  @GrpcUnary('CancelTimer')
  async cancelTimer(request: Rpc.CancelTimerRequest, context: GrpcCallContext): Promise<Rpc.CancelTimerReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const reply = await this.commands.execute(new CancelTimerCommand(envelope, requireId('timer_id', request.timer_id)));
    return commandReply(reply, { timer: toTimer(reply.timer), cancelled: reply.cancelled });
  }

  @GrpcUnary('CreateTask')
  async createTask(request: Rpc.CreateTaskRequest, context: GrpcCallContext): Promise<Rpc.TaskReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const reply = await this.commands.execute(new CreateTaskCommand(envelope, await createTaskInput(request)));
    return commandReply(reply, { task: toTask(reply.task) });
  }

  @GrpcUnary('UpdateTaskStatus')
  async updateTaskStatus(request: Rpc.UpdateTaskStatusRequest, context: GrpcCallContext): Promise<Rpc.TaskReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const taskId = requireId('task_id', request.task_id);
    const { status, detail } = await checked(UpdateTaskStatusDto, { status: request.status, detail: request.detail });
    const reply = await this.commands.execute(new UpdateTaskStatusCommand(envelope, taskId, status, detail));
    return commandReply(reply, { task: toTask(reply.task) });
  }

  @GrpcUnary('ListTasks')
  async listTasks(request: Rpc.ListTasksRequest): Promise<Rpc.ListTasksReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const { filter, work_item_id, limit } = request;
    const query = await listQuery(ListTasksQueryDto, { filter, work_item_id, limit });
    return toList(await this.queries.execute(new ListTasksQuery(agentId, query)), toTask);
  }

  @GrpcUnary('EnqueueMessage')
  async enqueueMessage(request: Rpc.EnqueueMessageRequest, context: GrpcCallContext): Promise<Rpc.EnqueueMessageReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const reply = await this.commands.execute(new EnqueueMessageCommand(envelope, await enqueueMessageInput(request), 'operator'));
    return commandReply(reply, { message: toQueuedMessage(reply.message) });
  }

  @GrpcUnary('ListMessages')
  async listMessages(request: Rpc.ListMessagesRequest): Promise<Rpc.ListMessagesReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const query = await listQuery(ListMessagesQueryDto, { status: request.status, limit: request.limit });
    return toList(await this.queries.execute(new ListMessagesQuery(agentId, query)), toQueuedMessage);
  }

  @GrpcUnary('DropMessage')
  async dropMessage(request: Rpc.DropMessageRequest, context: GrpcCallContext): Promise<Rpc.DropMessageReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const reply = await this.commands.execute(new DropMessageCommand(envelope, requireId('message_id', request.message_id)));
    return commandReply(reply, { message: toQueuedMessage(reply.message), dropped: reply.dropped });
  }

  @GrpcUnary('Control')
  async control(request: Rpc.ControlRequest, context: GrpcCallContext): Promise<Rpc.ControlReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const { action } = await checked(ControlDto, { action: request.action });
    return toControlReply(await this.commands.execute(new ControlCommand(envelope, action)));
  }
}
