import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { AGENT_STREAM_PREFIX } from '@app/core';
import { POSTGRES_POOL } from '@app/read-models';
import { RUNTIME_CONFIG } from '../config/config.providers';
import { roleRuns, type RuntimeConfig, type RuntimeRole } from '../config/runtime-config';

/** The shape of `createEventStore` from `@app/event-store`. */
export type EventStoreFactory = (options: {
  pool: Pool;
  eventStoreConnectionString?: string;
  streamPrefixes?: readonly string[];
  appendConcurrency?: number;
}) => Promise<EventStore>;

/**
 * The Postgres store's append calls in flight (group commit, docs/decisions/0047): one in a process
 * that only serves the API (its appends come from many independent requests: one call in flight
 * groups the most of them, the least CPU per command), four in a process that runs the scheduler
 * (an evaluation is a chain of dependent reads and appends: with one call in flight each append
 * would also wait for the call before it).
 */
export function appendCallsFor(role: RuntimeRole): number {
  return roleRuns(role).scheduler ? 4 : 1;
}

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
      appendConcurrency: appendCallsFor(config.role),
    }),
};
