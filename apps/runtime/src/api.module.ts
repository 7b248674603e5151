import { Module } from '@nestjs/common';
import { AuditHttpModule } from './audit/audit-http.module';
import { ConsoleHttpModule } from './console/console-http.module';
import { DelegationHttpModule } from './delegation/delegation-http.module';
import { AgentRuntimeGrpcModule } from './grpc/agent-runtime-grpc.module';
import { SchedulerHttpModule } from './scheduler/scheduler-http.module';
import { StrandedHttpModule } from './stranded/stranded.controller';
import { WaitingHttpModule } from './waiting/waiting-http.module';
import { WorkItemsHttpModule } from './work-items/work-items-http.module';

/**
 * The API role (RUNTIME_ROLE all or api): HTTP /v1 controllers, @GrpcService providers and the
 * operator console at /console. Each feature adds its modules here; the platform's
 * RuntimeModule runs them beside the projection and scheduler workers the role asks for.
 */
@Module({
  imports: [
    WorkItemsHttpModule,
    WaitingHttpModule,
    SchedulerHttpModule,
    AgentRuntimeGrpcModule,
    AuditHttpModule,
    ConsoleHttpModule,
    DelegationHttpModule,
    StrandedHttpModule,
  ],
})
export class ApiModule {}
