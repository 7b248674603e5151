import { Module } from '@nestjs/common';
import { SchedulerQueriesModule, SchedulerStepModule, TurnsModule, WaitingPlaneModule } from '@app/application';
import { AgentRuntimeGrpcService } from './agent-runtime.grpc-service';

/** The runtime's gRPC service (agent_runtime.v1.AgentRuntime); the GrpcServerHost finds it at bootstrap. */
@Module({ imports: [WaitingPlaneModule, SchedulerStepModule, TurnsModule, SchedulerQueriesModule], providers: [AgentRuntimeGrpcService] })
export class AgentRuntimeGrpcModule {}
