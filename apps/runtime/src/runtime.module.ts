import { DynamicModule, Module, type Type } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthModule } from '@app/application/auth';
import {
  GrpcModule,
  HealthModule,
  InfrastructureModule,
  PlatformModule,
  RateLimitingModule,
  roleRuns,
  type EventStoreFactory,
  type PlatformOptions,
  type PostgresConnection,
} from '@app/platform';
import { ApiSlotModule, ProjectorSlotModule, SchedulerSlotModule } from './role-slots';

export interface RuntimeModuleOptions extends PlatformOptions {
  connection: PostgresConnection;
  eventStoreFactory: EventStoreFactory;
  /** More modules (tests add a controller or a gRPC service here). */
  extraModules?: Type[];
}

/** The process: the platform, then what RUNTIME_ROLE asks for. No business logic here. */
@Module({})
export class RuntimeModule {
  static forRoot(options: RuntimeModuleOptions): DynamicModule {
    const runs = roleRuns(options.config.role);
    return {
      module: RuntimeModule,
      imports: [
        PlatformModule.forRoot(options),
        CqrsModule.forRoot(),
        InfrastructureModule.forRoot({ connection: options.connection, eventStoreFactory: options.eventStoreFactory }),
        AuthModule,
        RateLimitingModule,
        HealthModule,
        ...(runs.api ? [GrpcModule, ApiSlotModule] : []),
        ...(runs.projector ? [ProjectorSlotModule] : []),
        ...(runs.scheduler ? [SchedulerSlotModule] : []),
        ...(options.extraModules ?? []),
      ],
    };
  }
}
