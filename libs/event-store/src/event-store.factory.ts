import type { Pool } from 'pg';
import type { EventStore } from './event-store.port';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { ensureSchema } from './postgres/schema';

export interface CreateEventStoreOptions {
  /** The shared Postgres pool (read models, and the event store when no EventStoreDB is configured). */
  pool: Pool;
  /** e.g. `esdb://localhost:2113?tls=false`; when set, EventStoreDB is the store. */
  eventStoreConnectionString?: string;
  /**
   * EventStoreDB only: the stream-name prefixes the global log (readAll, subscribeToAll,
   * headPosition) is made of, filtered by the server. Default: every non-system stream. The
   * Postgres store holds nothing else than what the runtime writes, and ignores it.
   */
  streamPrefixes?: readonly string[];
  /** Postgres only: append calls in flight at once (group commit, docs/decisions/0047; default 4). */
  appendConcurrency?: number;
}

/** EventStoreDB when a connection string is given, else the Postgres store (schema ensured first). */
export async function createEventStore(options: CreateEventStoreOptions): Promise<EventStore> {
  if (options.eventStoreConnectionString) {
    // Loaded lazily: the gRPC client stays out of processes that run on Postgres only.
    const { EventStoreDbEventStore } = await import('./eventstoredb/eventstoredb-event-store');
    return EventStoreDbEventStore.fromConnectionString(options.eventStoreConnectionString, {
      streamPrefixes: options.streamPrefixes,
    });
  }
  await ensureSchema(options.pool);
  return new PostgresEventStore(options.pool, { appendConcurrency: options.appendConcurrency });
}
