import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandEnvelope } from '@app/application';
import { canActOn } from '@app/application';
import {
  CompleteWorkItemCommand,
  CreateWorkItemCommand,
  PickWorkItemCommand,
  RegisterAgentCommand,
  ReplacePlanCommand,
  UpdateWorkItemCommand,
} from '@app/application';
import {
  GetAgentQuery,
  GetWorkItemQuery,
  GetWorkItemWhyQuery,
  ListPlanVersionsQuery,
  ListWorkItemsQuery,
  ReadPlanQuery,
  ReadPlanVersionQuery,
} from '@app/application';
import type { RpcRequest } from '@app/contracts';
import { CompleteWorkItemDto, ListWorkItemsQueryDto, PickWorkItemDto } from '@app/contracts';
import { ApiError } from '@app/core';
import { GrpcService } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { requireId } from './grpc-envelope';
import { checked, createWorkItemInput, listQuery, updateWorkItemInput } from './grpc-requests';
import { GrpcAgentQuery, GrpcCommand } from './grpc-rpc.decorators';

/**
 * The agents and work items of the HTTP edge over gRPC (`agent_runtime.v1.AgentRuntime`).
 * Thin like the controllers: shape the request as HTTP's body, run the same command or query,
 * answer its reply (the host maps it to the message). Auth (the request's agent_id) is
 * checked by the gRPC host before a method runs.
 */
@GrpcService(AGENT_RUNTIME_GRPC)
export class WorkItemRpcs {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @GrpcCommand('RegisterAgent')
  async registerAgent(_request: RpcRequest<'RegisterAgent'>, envelope: CommandEnvelope) {
    if (!canActOn(envelope.caller, envelope.agentId))
      throw new ApiError('forbidden', 'this token may not act on that agent');
    return this.commands.execute(new RegisterAgentCommand(envelope));
  }

  @GrpcAgentQuery('GetAgent')
  async getAgent(_request: RpcRequest<'GetAgent'>, agentId: string) {
    return this.queries.execute(new GetAgentQuery(agentId));
  }

  @GrpcCommand('CreateWorkItem')
  async createWorkItem(request: RpcRequest<'CreateWorkItem'>, envelope: CommandEnvelope) {
    return this.commands.execute(new CreateWorkItemCommand(envelope, await createWorkItemInput(request)));
  }

  @GrpcCommand('UpdateWorkItem')
  async updateWorkItem(request: RpcRequest<'UpdateWorkItem'>, envelope: CommandEnvelope) {
    const workItemId = requireId('work_item_id', request.work_item_id);
    return this.commands.execute(new UpdateWorkItemCommand(envelope, workItemId, await updateWorkItemInput(request)));
  }

  @GrpcCommand('PickWorkItem')
  async pickWorkItem(request: RpcRequest<'PickWorkItem'>, envelope: CommandEnvelope) {
    const workItemId = requireId('work_item_id', request.work_item_id);
    const { reason } = await checked(PickWorkItemDto, { reason: request.reason });
    return this.commands.execute(new PickWorkItemCommand(envelope, workItemId, reason));
  }

  @GrpcCommand('CompleteWorkItem')
  async completeWorkItem(request: RpcRequest<'CompleteWorkItem'>, envelope: CommandEnvelope) {
    const workItemId = requireId('work_item_id', request.work_item_id);
    const { round_id } = await checked(CompleteWorkItemDto, { round_id: request.round_id });
    return this.commands.execute(new CompleteWorkItemCommand(envelope, workItemId, round_id));
  }

  @GrpcAgentQuery('GetWorkItem')
  async getWorkItem(request: RpcRequest<'GetWorkItem'>, agentId: string) {
    return this.queries.execute(new GetWorkItemQuery(agentId, requireId('work_item_id', request.work_item_id)));
  }

  @GrpcAgentQuery('GetWorkItemWhy')
  async getWorkItemWhy(request: RpcRequest<'GetWorkItemWhy'>, agentId: string) {
    return this.queries.execute(new GetWorkItemWhyQuery(agentId, requireId('work_item_id', request.work_item_id)));
  }

  @GrpcAgentQuery('ListWorkItems')
  async listWorkItems(request: RpcRequest<'ListWorkItems'>, agentId: string) {
    const { filter, limit } = await listQuery(ListWorkItemsQueryDto, { filter: request.filter, limit: request.limit });
    return this.queries.execute(new ListWorkItemsQuery(agentId, filter ?? 'all', limit));
  }

  /** With `version`, a recorded version by hash (HTTP's `?version=`): an empty one is 400 there too. */
  @GrpcAgentQuery('GetPlan', { storeRead: true })
  async getPlan(request: RpcRequest<'GetPlan'>, agentId: string) {
    const workItemId = requireId('work_item_id', request.work_item_id);
    const { version } = request;
    if (version === undefined || version === null)
      return { body: await this.queries.execute(new ReadPlanQuery(agentId, workItemId)) };
    if (version === '') throw new ApiError('validation_failed', 'version: one sha256:<hex> hash', { field: 'version' });
    return { body: await this.queries.execute(new ReadPlanVersionQuery(agentId, workItemId, version)) };
  }

  @GrpcAgentQuery('ListPlanVersions', { storeRead: true })
  async listPlanVersions(request: RpcRequest<'ListPlanVersions'>, agentId: string) {
    return this.queries.execute(new ListPlanVersionsQuery(agentId, requireId('work_item_id', request.work_item_id)));
  }

  @GrpcCommand('ReplacePlan')
  async replacePlan(request: RpcRequest<'ReplacePlan'>, envelope: CommandEnvelope) {
    const workItemId = requireId('work_item_id', request.work_item_id);
    return this.commands.execute(new ReplacePlanCommand(envelope, workItemId, request.body));
  }
}
