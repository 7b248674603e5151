import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { type CommandEnvelope, ListDelegationsQuery, SpawnAgentCommand } from '@app/application';
import { type RpcRequest, SpawnAgentDto } from '@app/contracts';
import { GrpcService } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { checked } from './grpc-requests';
import { GrpcAgentQuery, GrpcCommand } from './grpc-rpc.decorators';

/** SpawnAgent and ListDelegations of `agent_runtime.v1.AgentRuntime` (issue 17). */
@GrpcService(AGENT_RUNTIME_GRPC)
export class DelegationRpcs {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @GrpcCommand('SpawnAgent')
  async spawn(request: RpcRequest<'SpawnAgent'>, envelope: CommandEnvelope) {
    const input = await checked(SpawnAgentDto, {
      workspace_mode: request.workspace_mode,
      initial_message: request.initial_message ?? undefined,
      agent_id: request.child_agent_id ?? undefined,
      preset: request.preset ?? undefined,
      template: request.template ?? undefined,
      work_item_id: request.work_item_id ?? undefined,
    });
    return this.commands.execute(new SpawnAgentCommand(envelope, input));
  }

  @GrpcAgentQuery('ListDelegations', { storeRead: true })
  listDelegations(_request: RpcRequest<'ListDelegations'>, agentId: string) {
    return this.queries.execute(new ListDelegationsQuery(agentId));
  }
}
