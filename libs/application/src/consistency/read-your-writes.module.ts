import { Inject, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Pool } from 'pg';
import { LOGGER, type Logger } from '@app/core';
import {
  type CoverageSource,
  ListenedCoverage,
  POSTGRES_POOL,
  PROJECTION_RUNNER,
  type ProjectionRunner,
  READ_MODELS_PROJECTION,
  ReadBarrier,
  StandbyAwareCoverage,
} from '@app/read-models';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';
import { DEFAULT_MIN_POSITION_WAIT_MS, READ_YOUR_WRITES, ReadYourWrites } from './read-your-writes';

/**
 * The process's one ReadBarrier, made on the first read that waits: on the projection runner of
 * this process while it runs (woken by its progress, no database work), else on the
 * database's notices of checkpoint advances (ListenedCoverage: one connection for all waiters).
 */
@Injectable()
export class ReadBarrierHolder implements OnModuleDestroy {
  private barrier: ReadBarrier | null = null;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(POSTGRES_POOL) private readonly pool: Pool,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  get(): ReadBarrier {
    return (this.barrier ??= new ReadBarrier(this.source(), [READ_MODELS_PROJECTION]));
  }

  async onModuleDestroy(): Promise<void> {
    await this.barrier?.close();
  }

  private source(): CoverageSource {
    const listened = new ListenedCoverage(this.pool, {
      onError: (error) =>
        this.logger.warn({ err: error, component: 'read-your-writes' }, 'projection progress listener failed'),
    });
    const runner = this.inProcessRunner();
    // A projector replica on standby (another holds the lease, ADR 0035) learns the checkpoint from the database.
    return runner ? new StandbyAwareCoverage(runner, listened) : listened;
  }

  private inProcessRunner(): ProjectionRunner<unknown> | null {
    try {
      return this.moduleRef.get<ProjectionRunner<unknown>>(PROJECTION_RUNNER, { strict: false });
    } catch {
      return null;
    }
  }
}

const readYourWritesProvider = {
  provide: READ_YOUR_WRITES,
  inject: [ReadBarrierHolder, { token: APPLICATION_SETTINGS, optional: true }],
  useFactory: (holder: ReadBarrierHolder, settings?: ApplicationSettings) =>
    new ReadYourWrites(() => holder.get(), settings?.minPositionWaitMs ?? DEFAULT_MIN_POSITION_WAIT_MS),
};

/** Read-your-writes for the API role: READ_YOUR_WRITES (the HTTP interceptor and the gRPC reads use it). */
@Module({ providers: [ReadBarrierHolder, readYourWritesProvider], exports: [READ_YOUR_WRITES] })
export class ReadYourWritesModule {}
