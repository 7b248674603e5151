import {
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Provider,
} from '@nestjs/common';
import type { Pool } from 'pg';
import type { AgentState } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import {
  LOGGER,
  type Logger,
  agentStateDecider,
  SNAPSHOT_STORE,
  AGENT_DIRECTORY,
  TRACING,
  type Tracing,
} from '@app/core';
import { POSTGRES_POOL } from './postgres/postgres-pool';
import type { LeaseKeeper } from './ownership/lease-keeper';
import { OWNERSHIP_SETTINGS, type OwnershipSettings, projectorLease } from './ownership/shard-ownership';
import { LEASE_KEEPERS, type LeaseKeepers } from './ownership/lease-readiness';
import { ProjectionRunner } from './projection/projection-runner';
import type { DeadLetter } from './projection/poison';
import { PostgresSnapshotStore, snapshotStoreProvider } from './snapshots/postgres-snapshot-store';
import { WORK_ITEM_QUERIES, workItemQueriesProvider } from './work-items/work-items.queries';
import { workItemsProjector } from './work-items/work-items.projector';
import { RECORD_QUERIES, recordQueriesProvider } from './records/record-queries';
import { WAITING_PLANE_PROJECTORS } from './records/waiting-plane.projectors';
import { agentDirectoryProvider } from './work-items/agent-directory';
import { SCHEDULER_PROJECTORS } from './scheduler/scheduler.projectors';
import { schedulerAgendaProjector } from './scheduler/scheduler-agenda';
import { SCHEDULER_QUERIES, schedulerQueriesProvider } from './scheduler/scheduler.queries';
import {
  AGENT_PARENTS_QUERIES,
  agentParentsProjector,
  agentParentsQueriesProvider,
  HANDOFF_CHECKPOINTS,
  handoffCheckpointsProvider,
} from './delegation/agent-parents.projector';
import { strandedWorkProjector } from './stranded/stranded.projector';
import { STRANDED_QUERIES, strandedQueriesProvider } from './stranded/stranded.queries';

export const PROJECTION_RUNNER = Symbol('PROJECTION_RUNNER');
/** The checkpoint name of the read models' runner (a row of projection_checkpoints). */
export const READ_MODELS_PROJECTION = 'read_models';

/** Every read model of the runtime, applied together by one runner and one checkpoint. */
export const READ_MODEL_PROJECTORS = [
  workItemsProjector,
  ...WAITING_PLANE_PROJECTORS,
  ...SCHEDULER_PROJECTORS,
  agentParentsProjector,
  strandedWorkProjector,
  schedulerAgendaProjector,
];

export function createProjectionRunner(
  pool: Pool,
  store: EventStore,
  onError?: (error: unknown) => void,
  onParked?: (letter: DeadLetter) => void,
  tracing?: Tracing,
): ProjectionRunner<AgentState> {
  return new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
    name: READ_MODELS_PROJECTION,
    onError,
    onParked,
    snapshots: new PostgresSnapshotStore(pool),
    tracing,
  });
}

const projectionRunnerProvider: Provider = {
  provide: PROJECTION_RUNNER,
  inject: [POSTGRES_POOL, EVENT_STORE, LOGGER, { token: TRACING, optional: true }],
  useFactory: (pool: Pool, store: EventStore, logger: Logger, tracing?: Tracing) =>
    createProjectionRunner(
      pool,
      store,
      (error) => logger.error({ err: error, component: 'projector' }, 'projection batch failed; retrying'),
      (letter) =>
        logger.error(
          {
            component: 'projector',
            projection: letter.projection,
            position: letter.position.toString(),
            stream: letter.stream,
            type: letter.type,
            error: letter.error,
          },
          'poison event: its agent is parked (skip or retry it: POST /v1/admin/projections/{name}/dead-letters/{position}/skip|retry)',
        ),
      tracing,
    ),
};

/** Queries and snapshots: every role that serves the API needs them. */
@Module({
  providers: [
    snapshotStoreProvider,
    workItemQueriesProvider,
    recordQueriesProvider,
    schedulerQueriesProvider,
    agentDirectoryProvider,
    agentParentsQueriesProvider,
    handoffCheckpointsProvider,
    strandedQueriesProvider,
  ],
  exports: [
    SNAPSHOT_STORE,
    WORK_ITEM_QUERIES,
    RECORD_QUERIES,
    SCHEDULER_QUERIES,
    AGENT_DIRECTORY,
    AGENT_PARENTS_QUERIES,
    HANDOFF_CHECKPOINTS,
    STRANDED_QUERIES,
  ],
})
export class ReadModelsModule {}

export const PROJECTOR_LEASE = Symbol('PROJECTOR_LEASE');

const projectorLeaseProvider: Provider = {
  provide: PROJECTOR_LEASE,
  inject: [
    POSTGRES_POOL,
    LOGGER,
    { token: OWNERSHIP_SETTINGS, optional: true },
    { token: LEASE_KEEPERS, optional: true },
  ],
  useFactory: (pool: Pool, logger: Logger, settings?: OwnershipSettings, keepers?: LeaseKeepers) => {
    const lease = projectorLease(pool, settings, {
      onError: (error) =>
        logger.warn(
          { err: error, component: 'projector' },
          'projector lease round failed; the lease stays valid until its TTL',
        ),
    });
    keepers?.register(lease);
    return lease;
  },
};

/**
 * Runs the projection runner while this replica holds the projector lease (ADR 0035): exactly
 * one projector applies the events, a standby starts within the lease's TTL after the active one
 * stops renewing (at once when it stops cleanly). The checkpoint row's lock per batch stays the
 * safety net for the moment both think they hold it (a paused replica waking up).
 */
@Injectable()
export class ProjectorLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private switching: Promise<void> = Promise.resolve();
  private off?: () => void;

  constructor(
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner<AgentState>,
    @Inject(PROJECTOR_LEASE) private readonly lease: LeaseKeeper,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A replica that was paused past its lease stops before its next batch (the standby has it by then).
    this.runner.applyOnlyWhile(() => this.lease.lease(0) !== null);
    this.off = this.lease.onChange(({ gained, lost }) => {
      if (lost.length > 0) this.switchTo(false);
      if (gained.length > 0) this.switchTo(true);
    });
    await this.lease.start();
    await this.switching;
    if (!this.runner.active)
      this.logger.info(
        { component: 'projector', owner: this.lease.owner },
        'projector on standby: another replica holds the lease',
      );
  }

  async onModuleDestroy(): Promise<void> {
    this.off?.();
    await this.switching;
    await this.runner.stop();
    await this.lease.stop();
  }

  private switchTo(active: boolean): void {
    this.switching = this.switching.then(async () => {
      try {
        if (!active) {
          await this.runner.stop();
          this.logger.warn({ component: 'projector', owner: this.lease.owner }, 'projector lease lost: on standby');
          return;
        }
        await this.runner.start();
        this.logger.info(
          { component: 'projector', owner: this.lease.owner, checkpoint: this.runner.checkpoint.toString() },
          'projector started',
        );
      } catch (error) {
        this.logger.error({ err: error, component: 'projector' }, 'projector could not switch');
      }
    });
  }
}

/** The projection worker (roles all and projector). */
@Module({
  providers: [projectionRunnerProvider, projectorLeaseProvider, ProjectorLifecycle],
  exports: [PROJECTION_RUNNER, PROJECTOR_LEASE],
})
export class ProjectorModule {}
