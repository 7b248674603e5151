import type { Pool } from 'pg';
import type { EventStore } from '../event-store.port';
import { createEventStore } from '../event-store.factory';
import { PostgresEventStore } from '../postgres/postgres-event-store';

/**
 * The one place the test harnesses take their event store from. `TEST_EVENT_STORE` (postgres by
 * default, or esdb) is resolved once by jest's globalSetup, which also finds the server
 * (EVENTSTORE_CONNECTION_STRING, or a KurrentDB container where a Docker engine runs) and leaves
 * its connection string in TEST_EVENTSTORE_CONNECTION_STRING for every worker and child process.
 */
export type TestStoreKind = 'postgres' | 'esdb';

export function testStoreKind(): TestStoreKind {
  return process.env.TEST_EVENT_STORE === 'esdb' ? 'esdb' : 'postgres';
}

/**
 * Where a deployment keeps its events on EventStoreDB: one namespace per Postgres schema of the
 * run, so that a deployment sees the events of its own schema (as on the Postgres store, where
 * the events table lives in that schema) and nothing of the suites beside it or of earlier runs.
 */
export function testStreamNamespace(databaseUrl: string | undefined): string {
  const options = databaseUrl ? new URL(databaseUrl).searchParams.get('options') : null;
  const schema = options?.match(/search_path=([A-Za-z0-9_]+)/)?.[1] ?? 'public';
  return `${process.env.TEST_RUN_ID ?? 'run'}-${schema}-`;
}

/** The connection string of the run's EventStoreDB for a deployment on `databaseUrl`, or undefined on Postgres. */
export function testEventStoreConnection(databaseUrl: string | undefined): string | undefined {
  if (testStoreKind() !== 'esdb') return undefined;
  // jest's globalSetup resolves it; `npm run bench` outside jest takes EVENTSTORE_CONNECTION_STRING.
  const server = process.env.TEST_EVENTSTORE_CONNECTION_STRING ?? process.env.EVENTSTORE_CONNECTION_STRING;
  if (!server)
    throw new Error('TEST_EVENT_STORE=esdb without EVENTSTORE_CONNECTION_STRING (jest: globalSetup finds one)');
  const namespace = encodeURIComponent(testStreamNamespace(databaseUrl));
  return `${server}${server.includes('?') ? '&' : '?'}streamNamespace=${namespace}`;
}

/** The environment a runtime process (in-process app, child service, CLI) needs for the run's store. */
export function testStoreEnv(databaseUrl: string | undefined): Record<string, string> {
  const connection = testEventStoreConnection(databaseUrl);
  return connection ? { EVENTSTORE_CONNECTION_STRING: connection } : {};
}

/**
 * The run's store for a checker or a scenario that reads the events of the deployment on
 * `databaseUrl`; `streamPrefixes` as the runtime passes them (its agent stream prefix).
 */
export function openTestEventStore(
  pool: Pool,
  databaseUrl: string | undefined,
  streamPrefixes?: readonly string[],
): Promise<EventStore> {
  const eventStoreConnectionString = testEventStoreConnection(databaseUrl);
  if (!eventStoreConnectionString) return Promise.resolve(new PostgresEventStore(pool)); // the deployment's schema exists
  return createEventStore({ pool, eventStoreConnectionString, streamPrefixes });
}

/**
 * A throwaway KurrentDB container (testcontainers' KurrentDB module), where a Docker engine runs;
 * loaded lazily so that nothing else loads testcontainers (`npm run bench` on TEST_EVENT_STORE=esdb).
 */
export async function startTestEventStoreDb(): Promise<{ connectionString: string; stop(): Promise<void> }> {
  const { startEventStoreDb } = await import('./eventstoredb-container');
  return startEventStoreDb();
}
