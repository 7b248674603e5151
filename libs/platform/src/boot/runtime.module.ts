import { DynamicModule, Module, type Type } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthModule, DelegationHandoffWorkerModule, SchedulerWorkerModule } from '@app/application';
import { LeaseKeepersModule, ProjectorModule } from '@app/read-models';
import { roleRuns } from '../config/runtime-config';
import { GrpcModule } from '../grpc/grpc.module';
import { HealthModule } from '../health/health.module';
import { MinPositionHttpModule } from '../http/min-position.interceptor';
import { InfrastructureModule } from '../infrastructure/infrastructure.module';
import { MetricsModule } from '../metrics/metrics.module';
import type { EventStoreFactory } from '../infrastructure/event-store.providers';
import { PlatformModule, type PlatformOptions } from '../platform.module';
import type { PostgresConnection } from '../postgres/postgres-connection';
import { RateLimitingModule } from '../security/rate-limiting';

export interface RuntimeModuleOptions extends PlatformOptions {
  connection: PostgresConnection;
  eventStoreFactory: EventStoreFactory;
  /**
   * The modules of the API role: HTTP controllers and @GrpcService providers (apps/runtime).
   * An app that serves no API leaves it out and pins a role without `api`.
   */
  api?: Type[];
  /** More modules (tests add a controller or a gRPC service here). */
  extraModules?: Type[];
}

/** Projection workers: store subscription -> read models (roles all, projector). */
@Module({ imports: [ProjectorModule] })
export class ProjectorSlotModule {}

/** The scheduler worker: timers, ticks, decisions; and the delegation hand-off (roles all, scheduler). */
@Module({ imports: [SchedulerWorkerModule, DelegationHandoffWorkerModule] })
export class SchedulerSlotModule {}

/**
 * The process: the platform, then what RUNTIME_ROLE asks for (the API, the projection worker,
 * the scheduler worker). No business logic here.
 */
@Module({})
export class RuntimeModule {
  static forRoot(options: RuntimeModuleOptions): DynamicModule {
    const runs = roleRuns(options.config.role);
    if (runs.api && !options.api)
      throw new Error(`RUNTIME_ROLE=${options.config.role} runs the API, which this app does not serve`);
    return {
      module: RuntimeModule,
      imports: [
        PlatformModule.forRoot(options),
        CqrsModule.forRoot(),
        InfrastructureModule.forRoot({ connection: options.connection, eventStoreFactory: options.eventStoreFactory }),
        AuthModule,
        RateLimitingModule,
        LeaseKeepersModule,
        HealthModule,
        MetricsModule,
        ...(runs.api ? [GrpcModule, MinPositionHttpModule, ...(options.api ?? [])] : []),
        ...(runs.projector ? [ProjectorSlotModule] : []),
        ...(runs.scheduler ? [SchedulerSlotModule] : []),
        ...(options.extraModules ?? []),
      ],
    };
  }
}
