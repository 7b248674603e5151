export * from './event-store.port';
export * from './errors';
export { createEventStore, type CreateEventStoreOptions } from './event-store.factory';
export { ensureSchema } from './postgres/schema';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres/postgres-event-store';
/** Whether a Postgres error means "not now" (an outage), for every library that talks to Postgres. */
export { isUnavailable as isPostgresUnavailable } from './postgres/pg-errors';
export {
  MAX_UINT64,
  toJsonRevision,
  fromJsonRevision,
  toJsonPosition,
  fromJsonPosition,
  toJsonExpectedRevision,
} from './revisions';
