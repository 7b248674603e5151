import { QueryBus } from '@nestjs/cqrs';
import {
  GetContextQuery,
  GetSchedulerStateQuery,
  ListBriefsQuery,
  ListDecisionsQuery,
  ListDeliverySummariesQuery,
} from '@app/application';
import type { RpcRequest } from '@app/contracts';
import {
  ContextQueryDto,
  ListBriefsQueryDto,
  ListDecisionsQueryDto,
  ListDeliverySummariesQueryDto,
  parseBudget,
} from '@app/contracts';
import { GrpcService } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { checked, listQuery } from './grpc-requests';
import { GrpcAgentQuery } from './grpc-rpc.decorators';

/** The scheduler's read RPCs of `agent_runtime.v1.AgentRuntime`, with HTTP's query-string rules. */
@GrpcService(AGENT_RUNTIME_GRPC)
export class SchedulerQueryRpcs {
  constructor(private readonly queries: QueryBus) {}

  @GrpcAgentQuery('GetState')
  async getState(_request: RpcRequest<'GetState'>, agentId: string) {
    return this.queries.execute(new GetSchedulerStateQuery(agentId));
  }

  @GrpcAgentQuery('GetContext', { storeRead: true })
  async getContext(request: RpcRequest<'GetContext'>, agentId: string) {
    const { budget } = await checked(ContextQueryDto, {
      budget: request.budget === undefined ? undefined : String(request.budget),
    });
    return this.queries.execute(new GetContextQuery(agentId, parseBudget(budget)));
  }

  @GrpcAgentQuery('ListDecisions')
  async listDecisions(request: RpcRequest<'ListDecisions'>, agentId: string) {
    const { limit } = await listQuery(ListDecisionsQueryDto, { limit: request.limit });
    return this.queries.execute(new ListDecisionsQuery(agentId, limit));
  }

  @GrpcAgentQuery('ListBriefs')
  async listBriefs(request: RpcRequest<'ListBriefs'>, agentId: string) {
    const { kind, work_item_id, limit } = request;
    return this.queries.execute(
      new ListBriefsQuery(agentId, await listQuery(ListBriefsQueryDto, { kind, work_item_id, limit })),
    );
  }

  @GrpcAgentQuery('ListDeliverySummaries')
  async listDeliverySummaries(request: RpcRequest<'ListDeliverySummaries'>, agentId: string) {
    const { work_item_id, limit } = request;
    return this.queries.execute(
      new ListDeliverySummariesQuery(agentId, await listQuery(ListDeliverySummariesQueryDto, { work_item_id, limit })),
    );
  }
}
