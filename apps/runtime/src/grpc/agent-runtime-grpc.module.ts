import { Module } from '@nestjs/common';
import { WorkItemsModule } from '@app/application/work-items/work-items.module';
import { AgentRuntimeGrpcService } from './agent-runtime.grpc-service';

/** The runtime's gRPC service (agent_runtime.v1.AgentRuntime); the GrpcServerHost finds it at bootstrap. */
@Module({ imports: [WorkItemsModule], providers: [AgentRuntimeGrpcService] })
export class AgentRuntimeGrpcModule {}
