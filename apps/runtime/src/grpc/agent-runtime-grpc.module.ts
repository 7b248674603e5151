import { Module } from '@nestjs/common';
import { AuditModule, DelegationModule } from '@app/application';
import { SchedulerQueriesModule } from '@app/application';
import { SchedulerStepModule } from '@app/application';
import { TurnsModule } from '@app/application';
import { WaitingPlaneModule } from '@app/application';
import { ArchiveRpcs } from './archive.grpc-rpcs';
import { AuditRpcs } from './audit.grpc-rpcs';
import { DelegationRpcs } from './delegation.grpc-rpcs';
import { RuntimeRecordRpcs } from './runtime-records.grpc-rpcs';
import { SchedulerQueryRpcs } from './scheduler-queries.grpc-rpcs';
import { TurnRpcs } from './turns.grpc-rpcs';
import { WaitingPlaneRpcs } from './waiting-plane.grpc-rpcs';
import { WorkItemRpcs } from './work-items.grpc-rpcs';

/**
 * The runtime's gRPC service (agent_runtime.v1.AgentRuntime): one provider per feature, each
 * declaring the service; the GrpcServerHost merges them at bootstrap and fails to start when an
 * RPC of the .proto has no handler or two.
 */
@Module({
  imports: [
    WaitingPlaneModule,
    SchedulerStepModule,
    TurnsModule,
    SchedulerQueriesModule,
    AuditModule,
    DelegationModule,
  ],
  providers: [
    WorkItemRpcs,
    WaitingPlaneRpcs,
    RuntimeRecordRpcs,
    TurnRpcs,
    SchedulerQueryRpcs,
    AuditRpcs,
    DelegationRpcs,
    ArchiveRpcs,
  ],
})
export class AgentRuntimeGrpcModule {}
