import { CommandBus } from '@nestjs/cqrs';
import { ArchiveWorkItemsCommand } from '@app/application';
import {
  AGENT_RUNTIME_ADMIN_PROTO,
  ArchiveWorkItemsDto,
  type CommandRequestFields,
  RUNTIME_ADMIN_GRPC_SERVICE,
} from '@app/contracts';
import { type GrpcCallContext, GrpcService, GrpcUnary } from '@app/platform';
import { commandEnvelopeOf } from './grpc-envelope';
import { checked } from './grpc-requests';

/** `agent_runtime.admin.v1.ArchiveWorkItemsRequest` as the loader hands it. */
type ArchiveWorkItemsRequest = CommandRequestFields & { completed_before?: string };

/**
 * The administration service (agent_runtime_admin.proto): archiving over gRPC, as
 * POST /v1/admin/agents/{a}/archive. Admin tokens only (PERMISSION_DENIED otherwise).
 */
@GrpcService({ service: RUNTIME_ADMIN_GRPC_SERVICE, proto: AGENT_RUNTIME_ADMIN_PROTO })
export class ArchiveRpcs {
  constructor(private readonly commands: CommandBus) {}

  @GrpcUnary('ArchiveWorkItems', { adminOnly: true })
  async archiveWorkItems(request: ArchiveWorkItemsRequest, context: GrpcCallContext) {
    const envelope = await commandEnvelopeOf(request, context);
    const { completed_before } = await checked(ArchiveWorkItemsDto, { completed_before: request.completed_before });
    return this.commands.execute(new ArchiveWorkItemsCommand(envelope, completed_before));
  }
}
