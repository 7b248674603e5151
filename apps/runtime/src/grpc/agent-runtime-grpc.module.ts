import { Module } from '@nestjs/common';
import { SchedulerQueriesModule } from '@app/application/scheduler/scheduler-queries.module';
import { SchedulerStepModule } from '@app/application/scheduler/scheduler.module';
import { TurnsModule } from '@app/application/turns/turns.module';
import { WaitingPlaneModule } from '@app/application/waiting/waiting-plane.module';
import { AgentRuntimeGrpcService } from './agent-runtime.grpc-service';

/** The runtime's gRPC service (agent_runtime.v1.AgentRuntime); the GrpcServerHost finds it at bootstrap. */
@Module({ imports: [WaitingPlaneModule, SchedulerStepModule, TurnsModule, SchedulerQueriesModule], providers: [AgentRuntimeGrpcService] })
export class AgentRuntimeGrpcModule {}
