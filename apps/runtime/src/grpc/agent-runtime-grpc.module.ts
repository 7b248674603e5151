import { Module } from '@nestjs/common';
import { WaitingPlaneModule } from '@app/application/waiting/waiting-plane.module';
import { AgentRuntimeGrpcService } from './agent-runtime.grpc-service';

/** The runtime's gRPC service (agent_runtime.v1.AgentRuntime); the GrpcServerHost finds it at bootstrap. */
@Module({ imports: [WaitingPlaneModule], providers: [AgentRuntimeGrpcService] })
export class AgentRuntimeGrpcModule {}
