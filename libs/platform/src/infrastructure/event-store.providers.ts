import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { AGENT_STREAM_PREFIX } from '@app/core';
import { POSTGRES_POOL } from '@app/read-models';
import { RUNTIME_CONFIG } from '../config/config.providers';
import type { RuntimeConfig } from '../config/runtime-config';

/** The shape of `createEventStore` from `@app/event-store`. */
export type EventStoreFactory = (options: {
  pool: Pool;
  eventStoreConnectionString?: string;
  streamPrefixes?: readonly string[];
}) => Promise<EventStore>;

export const EVENT_STORE_FACTORY = Symbol('EVENT_STORE_FACTORY');

/**
 * EventStoreDB when EVENTSTORE_CONNECTION_STRING is set, else the Postgres store on the shared
 * pool. The runtime reads only agent streams: EventStoreDB filters its log to them server-side.
 */
export const eventStoreProvider: Provider = {
  provide: EVENT_STORE,
  inject: [EVENT_STORE_FACTORY, POSTGRES_POOL, RUNTIME_CONFIG],
  useFactory: (factory: EventStoreFactory, pool: Pool, config: RuntimeConfig): Promise<EventStore> =>
    factory({
      pool,
      eventStoreConnectionString: config.eventStoreConnectionString ?? undefined,
      streamPrefixes: [AGENT_STREAM_PREFIX],
    }),
};
