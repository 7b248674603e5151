import { CommandBus } from '@nestjs/cqrs';
import { ArchiveWorkItemsCommand } from '@app/application';
import { ArchiveWorkItemsDto, type CommandRequestFields, type RpcRequest } from '@app/contracts';
import { type GrpcCallContext, GrpcService, GrpcUnary } from '@app/platform';
import { AGENT_RUNTIME_GRPC } from './agent-runtime.grpc';
import { commandEnvelopeOf } from './grpc-envelope';
import { checked } from './grpc-requests';

/** Archiving over gRPC (HTTP: POST /v1/admin/agents/{a}/archive): admin tokens only, as the route. */
@GrpcService(AGENT_RUNTIME_GRPC)
export class ArchiveRpcs {
  constructor(private readonly commands: CommandBus) {}

  @GrpcUnary('ArchiveWorkItems', { adminOnly: true })
  async archiveWorkItems(request: RpcRequest<'ArchiveWorkItems'>, context: GrpcCallContext) {
    const envelope = await commandEnvelopeOf(request as CommandRequestFields, context);
    const { completed_before } = await checked(ArchiveWorkItemsDto, { completed_before: request.completed_before });
    return this.commands.execute(new ArchiveWorkItemsCommand(envelope, completed_before));
  }
}
