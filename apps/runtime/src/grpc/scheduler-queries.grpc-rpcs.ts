import { Injectable } from '@nestjs/common';
import {
  GetContextQuery, GetSchedulerStateQuery, ListBriefsQuery, ListDecisionsQuery, ListDeliverySummariesQuery,
} from '@app/application';
import type * as Rpc from '@app/contracts';
import {
  ContextQueryDto, ListBriefsQueryDto, ListDecisionsQueryDto, ListDeliverySummariesQueryDto, parseBudget,
} from '@app/contracts';
import { GrpcUnary } from '@app/platform';
import { requireId } from './grpc-envelope';
import { toSchedulerState } from './grpc-scheduler-state';
import { toBrief, toContext, toDecision, toDeliverySummary } from './grpc-turn-replies';
import { toList } from './grpc-waiting-replies';
import { checked, listQuery } from './grpc-waiting-requests';
import { TurnRpcs } from './turns.grpc-rpcs';

/** The scheduler's read RPCs of `agent_runtime.v1.AgentRuntime`, with HTTP's query-string rules. */
@Injectable()
export class SchedulerQueryRpcs extends TurnRpcs {
  @GrpcUnary('GetState')
  async getState(request: Rpc.GetStateRequest): Promise<Rpc.SchedulerStateMessage> {
    return toSchedulerState(await this.queries.execute(new GetSchedulerStateQuery(requireId('agent_id', request.agent_id))));
  }

  @GrpcUnary('GetContext')
  async getContext(request: Rpc.GetContextRequest): Promise<Rpc.ContextProjectionMessage> {
    const agentId = requireId('agent_id', request.agent_id);
    const { budget } = await checked(ContextQueryDto, { budget: request.budget === undefined ? undefined : String(request.budget) });
    return toContext(await this.queries.execute(new GetContextQuery(agentId, parseBudget(budget))));
  }

  @GrpcUnary('ListDecisions')
  async listDecisions(request: Rpc.ListDecisionsRequest): Promise<Rpc.ListDecisionsReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const { limit } = await listQuery(ListDecisionsQueryDto, { limit: request.limit });
    return toList(await this.queries.execute(new ListDecisionsQuery(agentId, limit)), toDecision);
  }

  @GrpcUnary('ListBriefs')
  async listBriefs(request: Rpc.ListBriefsRequest): Promise<Rpc.ListBriefsReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const query = await listQuery(ListBriefsQueryDto, { kind: request.kind, work_item_id: request.work_item_id, limit: request.limit });
    return toList(await this.queries.execute(new ListBriefsQuery(agentId, query)), toBrief);
  }

  @GrpcUnary('ListDeliverySummaries')
  async listDeliverySummaries(request: Rpc.ListDeliverySummariesRequest): Promise<Rpc.ListDeliverySummariesReply> {
    const agentId = requireId('agent_id', request.agent_id);
    const query = await listQuery(ListDeliverySummariesQueryDto, { work_item_id: request.work_item_id, limit: request.limit });
    return toList(await this.queries.execute(new ListDeliverySummariesQuery(agentId, query)), toDeliverySummary);
  }
}
