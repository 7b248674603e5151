import {
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Provider,
} from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import {
  CLOCK,
  type Clock,
  LOGGER,
  type Logger,
  AGENT_DIRECTORY,
  type AgentDirectory,
  RUNTIME_METRICS,
  type RuntimeMetrics,
  TRACING,
  type Tracing,
} from '@app/core';
import type { Pool } from 'pg';
import {
  OWNERSHIP_SETTINGS,
  LEASE_KEEPERS,
  type LeaseKeepers,
  type OwnershipSettings,
  POSTGRES_POOL,
  ReadModelsModule,
  schedulerOwnership,
} from '@app/read-models';
import { ArchivePolicy } from '../archive/archive-policy';
import { WorkItemsModule } from '../work-items/work-items.module';
import { ActivateAgentHandler } from './activation';
import { ActivationWaiters } from './activation-waiters';
import { SchedulerStepService } from './scheduler-step.service';
import { SchedulerWorker } from './scheduler-worker';

/** One scheduler step, shared by the worker and `POST activations`. */
@Module({
  imports: [WorkItemsModule],
  providers: [SchedulerStepService, ActivateAgentHandler, ActivationWaiters],
  exports: [SchedulerStepService, ActivationWaiters, WorkItemsModule],
})
export class SchedulerStepModule {}

export const SCHEDULER_WORKER = Symbol('SCHEDULER_WORKER');

const workerProvider: Provider = {
  provide: SCHEDULER_WORKER,
  inject: [
    EVENT_STORE,
    SchedulerStepService,
    AGENT_DIRECTORY,
    LOGGER,
    CLOCK,
    POSTGRES_POOL,
    { token: OWNERSHIP_SETTINGS, optional: true },
    { token: RUNTIME_METRICS, optional: true },
    { token: TRACING, optional: true },
    { token: LEASE_KEEPERS, optional: true },
  ],
  useFactory: (
    store: EventStore,
    steps: SchedulerStepService,
    directory: AgentDirectory,
    logger: Logger,
    clock: Clock,
    pool: Pool,
    settings?: OwnershipSettings,
    metrics?: RuntimeMetrics,
    tracing?: Tracing,
    keepers?: LeaseKeepers,
  ) => {
    const log = logger.child({ component: 'scheduler' });
    // The worker acts on the agents of the shards this replica leases (ADR 0035); alone, it holds them all.
    const ownership = schedulerOwnership(pool, settings, {
      onError: (error) =>
        log.warn({ err: error }, 'scheduler lease round failed; the leases held stay valid until their TTL'),
    });
    keepers?.register(ownership.keeper);
    return new SchedulerWorker(store, steps, directory, log, {
      now: () => clock.now().getTime(),
      ownership,
      metrics,
      tracing,
    });
  },
};

@Injectable()
export class SchedulerLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(SCHEDULER_WORKER) private readonly worker: SchedulerWorker,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start();
    this.logger.info({ component: 'scheduler' }, 'scheduler worker started');
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker.stop();
  }
}

/** The scheduler worker (roles all and scheduler). */
@Module({
  imports: [SchedulerStepModule, ReadModelsModule],
  providers: [workerProvider, SchedulerLifecycle, ArchivePolicy],
  exports: [SCHEDULER_WORKER, ArchivePolicy],
})
export class SchedulerWorkerModule {}
