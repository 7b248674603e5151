import {
  canActOn, CompleteWorkItemCommand, CreateWorkItemCommand, PickWorkItemCommand, RegisterAgentCommand, ReplacePlanCommand, UpdateWorkItemCommand,
  GetAgentQuery, GetWorkItemQuery, ListWorkItemsQuery, ReadPlanQuery,
} from '@app/application';
import type * as Rpc from '@app/contracts';
import { AGENT_RUNTIME_PROTO, RUNTIME_GRPC_SERVICE } from '@app/contracts';
import { ApiError } from '@app/core';
import { GrpcService, GrpcUnary, type GrpcCallContext } from '@app/platform';
import { commandEnvelopeOf, requireId } from './grpc-envelope';
import { revisionOf, toAgentSummaryMessage, toWarningMessages, toWorkItemMessage } from './grpc-replies';
import { completeRoundId, createWorkItemInput, listQueryOf, pickReason, updateWorkItemInput } from './grpc-requests';
import { SchedulerQueryRpcs } from './scheduler-queries.grpc-rpcs';

/**
 * `agent_runtime.v1.AgentRuntime`: the agents and work items of the HTTP edge over gRPC, and
 * (inherited, one class per slice) the waiting plane, timers, tasks, messages and control,
 * turns and the scheduler's reads.
 * Thin like the controllers: check the request's shape, build the same command or query,
 * map the reply. Auth (the request's agent_id) is checked by the gRPC host before a method runs.
 */
@GrpcService({ service: RUNTIME_GRPC_SERVICE, proto: AGENT_RUNTIME_PROTO })
export class AgentRuntimeGrpcService extends SchedulerQueryRpcs {
  @GrpcUnary('RegisterAgent')
  async registerAgent(request: Rpc.RegisterAgentRequest, context: GrpcCallContext): Promise<Rpc.RegisterAgentReply> {
    const envelope = await commandEnvelopeOf(request, context);
    if (!canActOn(envelope.caller, envelope.agentId)) throw new ApiError('forbidden', 'this token may not act on that agent');
    const reply = await this.commands.execute(new RegisterAgentCommand(envelope));
    return { agent: toAgentSummaryMessage(reply.agent), warnings: [], revision: revisionOf(reply) };
  }

  @GrpcUnary('GetAgent')
  async getAgent(request: Rpc.GetAgentRequest): Promise<Rpc.AgentSummaryMessage> {
    return toAgentSummaryMessage(await this.queries.execute(new GetAgentQuery(requireId('agent_id', request.agent_id))));
  }

  @GrpcUnary('CreateWorkItem')
  async createWorkItem(request: Rpc.CreateWorkItemRequest, context: GrpcCallContext): Promise<Rpc.CreateWorkItemReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const reply = await this.commands.execute(new CreateWorkItemCommand(envelope, await createWorkItemInput(request)));
    return { work_item: toWorkItemMessage(reply.work_item), warnings: toWarningMessages(reply.warnings), revision: revisionOf(reply) };
  }

  @GrpcUnary('UpdateWorkItem')
  async updateWorkItem(request: Rpc.UpdateWorkItemRequest, context: GrpcCallContext): Promise<Rpc.UpdateWorkItemReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const workItemId = requireId('work_item_id', request.work_item_id);
    const reply = await this.commands.execute(new UpdateWorkItemCommand(envelope, workItemId, await updateWorkItemInput(request)));
    return {
      work_item: toWorkItemMessage(reply.work_item), focus_released: reply.focus_released,
      warnings: toWarningMessages(reply.warnings), revision: revisionOf(reply),
    };
  }

  @GrpcUnary('PickWorkItem')
  async pickWorkItem(request: Rpc.PickWorkItemRequest, context: GrpcCallContext): Promise<Rpc.PickWorkItemReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const workItemId = requireId('work_item_id', request.work_item_id);
    const reply = await this.commands.execute(new PickWorkItemCommand(envelope, workItemId, await pickReason(request)));
    return {
      current: toWorkItemMessage(reply.current),
      previous: reply.previous === null ? undefined : toWorkItemMessage(reply.previous),
      binding_note: reply.binding_note,
      warnings: toWarningMessages(reply.warnings),
      revision: revisionOf(reply),
    };
  }

  @GrpcUnary('CompleteWorkItem')
  async completeWorkItem(request: Rpc.CompleteWorkItemRequest, context: GrpcCallContext): Promise<Rpc.CompleteWorkItemReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const workItemId = requireId('work_item_id', request.work_item_id);
    const reply = await this.commands.execute(new CompleteWorkItemCommand(envelope, workItemId, await completeRoundId(request)));
    return {
      work_item: toWorkItemMessage(reply.work_item), completed_transition: reply.completed_transition,
      warnings: toWarningMessages(reply.warnings), revision: revisionOf(reply),
    };
  }

  @GrpcUnary('GetWorkItem')
  async getWorkItem(request: Rpc.GetWorkItemRequest): Promise<Rpc.WorkItemViewMessage> {
    const query = new GetWorkItemQuery(requireId('agent_id', request.agent_id), requireId('work_item_id', request.work_item_id));
    return toWorkItemMessage(await this.queries.execute(query));
  }

  @GrpcUnary('ListWorkItems')
  async listWorkItems(request: Rpc.ListWorkItemsRequest): Promise<Rpc.ListWorkItemsReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const { filter, limit } = await listQueryOf(request);
    const list = await this.queries.execute(new ListWorkItemsQuery(agentId, filter, limit));
    return { items: list.items.map(toWorkItemMessage), total: list.total };
  }

  @GrpcUnary('GetPlan')
  async getPlan(request: Rpc.GetPlanRequest): Promise<Rpc.GetPlanReply> {
    const query = new ReadPlanQuery(requireId('agent_id', request.agent_id), requireId('work_item_id', request.work_item_id));
    return { body: await this.queries.execute(query) };
  }

  @GrpcUnary('ReplacePlan')
  async replacePlan(request: Rpc.ReplacePlanRequest, context: GrpcCallContext): Promise<Rpc.ReplacePlanReply> {
    const envelope = await commandEnvelopeOf(request, context);
    const workItemId = requireId('work_item_id', request.work_item_id);
    const reply = await this.commands.execute(new ReplacePlanCommand(envelope, workItemId, request.body));
    return {
      work_item: toWorkItemMessage(reply.work_item), focus_released: reply.focus_released,
      warnings: toWarningMessages(reply.warnings), revision: revisionOf(reply),
    };
  }
}
