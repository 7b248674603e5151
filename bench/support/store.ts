import { spawnSync } from 'node:child_process';
import { startTestEventStoreDb, testStoreKind, type TestStoreKind } from '@app/event-store/testing';

/**
 * Which event store the figures measure: the one setting the test suites use (ADR 0040, 0043).
 * `TEST_EVENT_STORE=postgres` (the default) or `esdb`; on esdb the server is the one at
 * EVENTSTORE_CONNECTION_STRING, else a KurrentDB container where a Docker engine runs, else none:
 * then every figure that needs it prints one `SKIPPED:` line and the others still run. Raw
 * Postgres baselines (figures 1 and 2's raw INSERT, figure 5's SQL) stay Postgres.
 */
export type FigureStore = 'none' | TestStoreKind;

/** Figures that use no event store: they run whatever the setting. */
const STORELESS: Record<number, string> = {
  8: 'the domain decider in memory',
};

/** Figures that stay on the Postgres store whatever the setting, and why (their texts say so). */
export const POSTGRES_STORE_FIGURES: Record<number, string> = {
  10: "its fleet part times each scheduler decision by the `recorded_at` of the Postgres store's events table",
  14: "its replicas count decisions and duplicate keys in the Postgres store's events table",
};

export function benchStoreKind(): TestStoreKind {
  return testStoreKind();
}

/** The store a figure runs on under the run's setting. */
export function figureStore(id: number, kind: TestStoreKind = benchStoreKind()): FigureStore {
  if (id in STORELESS) return 'none';
  if (id in POSTGRES_STORE_FIGURES) return 'postgres';
  return kind;
}

/** The adapter's name, as the figure texts print it. */
export function storeName(kind: FigureStore): string {
  if (kind === 'none') return 'no event store';
  return kind === 'esdb' ? 'EventStoreDbEventStore (EventStoreDB/KurrentDB)' : 'PostgresEventStore';
}

/** The store the figure being run measures (the runner sets TEST_EVENT_STORE for each figure). */
export function currentStoreName(): string {
  return storeName(benchStoreKind());
}

/** The sentence a figure's method ends with: the store it measured. */
export function storeSentence(id: number, kind: TestStoreKind): string {
  const store = figureStore(id, kind);
  if (store === 'none') return `Event store: none (${STORELESS[id]}).`;
  const stays = kind === 'esdb' && store === 'postgres' ? ` (stays on Postgres: ${POSTGRES_STORE_FIGURES[id]})` : '';
  return `Event store: ${storeName(store)}${stays}.`;
}

/** The report's "event store" row. */
export function describeStore(kind: TestStoreKind, missing: string | null): string {
  const others = Object.keys(POSTGRES_STORE_FIGURES).join(' and ');
  if (kind === 'postgres') return `${storeName('postgres')} (TEST_EVENT_STORE=postgres, the default)`;
  if (missing) return `TEST_EVENT_STORE=esdb, but no server (${missing}): the figures that need it were skipped`;
  return `${storeName('esdb')} (TEST_EVENT_STORE=esdb); figures ${others} stay on PostgresEventStore`;
}

export interface BenchEventStoreDb {
  /** Why there is none (then the figures that need it are skipped), or null. */
  missing: string | null;
  close(): Promise<void>;
}

function dockerEngine(): boolean {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim().length > 0;
}

/**
 * On esdb, the run's server: EVENTSTORE_CONNECTION_STRING, else a KurrentDB container started
 * here where a Docker engine runs (its connection string left in TEST_EVENTSTORE_CONNECTION_STRING,
 * where the harnesses read it), else `missing` says why.
 */
export async function openBenchEventStoreDb(log: (line: string) => void): Promise<BenchEventStoreDb> {
  const none = { missing: null, close: async () => undefined };
  if (benchStoreKind() !== 'esdb' || process.env.EVENTSTORE_CONNECTION_STRING) return none;
  if (!dockerEngine()) return { missing: 'no EVENTSTORE_CONNECTION_STRING and no Docker engine', close: none.close };
  log('starting a KurrentDB container (testcontainers) for TEST_EVENT_STORE=esdb');
  const server = await startTestEventStoreDb();
  process.env.TEST_EVENTSTORE_CONNECTION_STRING = server.connectionString;
  return {
    missing: null,
    close: async () => {
      delete process.env.TEST_EVENTSTORE_CONNECTION_STRING;
      await server.stop();
    },
  };
}

/** Runs `body` with TEST_EVENT_STORE set to what the figure runs on (postgres for the Postgres-only ones). */
export async function onFigureStore<T>(store: FigureStore, body: () => Promise<T>): Promise<T> {
  const before = process.env.TEST_EVENT_STORE;
  if (store === 'postgres') process.env.TEST_EVENT_STORE = 'postgres';
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.TEST_EVENT_STORE;
    else process.env.TEST_EVENT_STORE = before;
  }
}
