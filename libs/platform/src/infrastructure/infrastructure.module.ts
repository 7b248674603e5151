import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { POSTGRES_POOL } from '@app/read-models';
import { postgresPoolProvider } from './postgres-pool.providers';
import { LOGGER, type Logger } from '@app/core';
import { POSTGRES_CONNECTION, type PostgresConnection } from '../postgres/postgres-connection';
import { EVENT_STORE_FACTORY, eventStoreProvider, type EventStoreFactory } from './event-store.providers';

/**
 * Closes what the infrastructure opened, in dependency order, after the HTTP and gRPC
 * servers have stopped (Nest calls onApplicationShutdown after disposing the servers):
 * event store, then the pool, then the embedded Postgres server, last.
 */
@Injectable()
export class InfrastructureLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(POSTGRES_POOL) private readonly pool: Pool,
    @Inject(POSTGRES_CONNECTION) private readonly connection: PostgresConnection,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.step('event store', () => this.store.close());
    await this.step('postgres pool', () => this.pool.end());
    await this.step('postgres server', () => this.connection.close());
  }

  private async step(what: string, close: () => Promise<void>): Promise<void> {
    try {
      await close();
    } catch (error) {
      this.logger.warn({ err: error, component: 'shutdown' }, `closing the ${what} failed`);
    }
  }
}

export interface InfrastructureOptions {
  connection: PostgresConnection;
  /** `createEventStore` from `@app/event-store`; tests may pass another. */
  eventStoreFactory: EventStoreFactory;
}

/** Postgres pool (POSTGRES_POOL, migrated) and the event store (EVENT_STORE), global. */
@Module({})
export class InfrastructureModule {
  static forRoot(options: InfrastructureOptions): DynamicModule {
    return {
      module: InfrastructureModule,
      global: true,
      providers: [
        { provide: POSTGRES_CONNECTION, useFactory: () => options.connection },
        { provide: EVENT_STORE_FACTORY, useFactory: () => options.eventStoreFactory },
        postgresPoolProvider,
        eventStoreProvider,
        InfrastructureLifecycle,
      ],
      exports: [POSTGRES_CONNECTION, POSTGRES_POOL, EVENT_STORE],
    };
  }
}
