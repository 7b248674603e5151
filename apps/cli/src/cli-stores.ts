import { createEventStore, type EventStore } from '@app/event-store';
import { createLogger, openPostgresConnection, type PostgresConnection, type RuntimeConfig } from '@app/platform';
import { AGENT_STREAM_PREFIX, type Logger } from '@app/core';
import { runMigrations, createPostgresPool, pingPostgres } from '@app/read-models';
import { CliError, EXIT, type CliIo } from './cli-io';
import { choosePostgres, safeTarget, type PostgresChoice } from './store-selection';

/** The stores of the deployment, opened the way the service opens them (same config, same pieces). */
export interface CliStores {
  pool: ReturnType<typeof createPostgresPool>;
  store: EventStore;
  close(): Promise<void>;
}

const STORE_TIMEOUT_MS = 5000;

export function cliLogger(config: RuntimeConfig, io: CliIo): Logger {
  const level = io.env.LOG_LEVEL ? config.logLevel : 'error';
  return createLogger({ ...config, logLevel: level }, { write: (line: string) => io.stderr(line) });
}

async function reachable(url: string, logger: Logger): Promise<boolean> {
  const pool = createPostgresPool(url, logger, { max: 1, connectionTimeoutMillis: 2000 });
  try {
    await pingPostgres(pool);
    return true;
  } catch {
    return false;
  } finally {
    await pool.end().catch(() => undefined);
  }
}

async function connect(choice: PostgresChoice, config: RuntimeConfig, logger: Logger): Promise<PostgresConnection> {
  if (choice.kind !== 'embedded') return { url: choice.url, embedded: false, close: async () => undefined };
  try {
    return await openPostgresConnection(config, logger);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const locked = /postmaster\.pid|lock file/i.test(message)
      ? `the data directory is in use by a process that published no address (a service without the HTTP API, or another CLI command): stop it, or set DATABASE_URL.\n`
      : '';
    throw new CliError(
      EXIT.storeUnreachable,
      `cannot start the embedded Postgres in ${config.dataDir}/pg: ${locked}${message}`,
    );
  }
}

export async function openCliStores(config: RuntimeConfig, io: CliIo): Promise<CliStores> {
  const logger = cliLogger(config, io);
  const choice = await choosePostgres(config, (url) => reachable(url, logger));
  if (choice.kind === 'embedded' && choice.note) io.stderr(`note: ${choice.note}\n`);
  const events = config.eventStoreConnectionString
    ? 'EventStoreDB (EVENTSTORE_CONNECTION_STRING)'
    : 'the Postgres event store (same database)';
  io.stderr(`using ${choice.describe}; events in ${events}\n`);
  const connection = await connect(choice, config, logger);
  const pool = createPostgresPool(connection.url, logger, { max: 4, connectionTimeoutMillis: STORE_TIMEOUT_MS });
  let store: EventStore | undefined;
  const close = async () => {
    await store?.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await connection.close().catch(() => undefined);
  };
  try {
    await pingPostgres(pool).catch((error: Error) => {
      throw new CliError(
        EXIT.storeUnreachable,
        `cannot reach Postgres at ${safeTarget(connection.url)}: ${error.message || String(error)}`,
      );
    });
    await runMigrations(pool, logger);
    store = await createEventStore({
      pool,
      eventStoreConnectionString: config.eventStoreConnectionString ?? undefined,
      streamPrefixes: [AGENT_STREAM_PREFIX],
    });
    await withTimeout(store.ping(), STORE_TIMEOUT_MS).catch((error: Error) => {
      throw new CliError(EXIT.storeUnreachable, `cannot reach the event store (${events}): ${error.message}`);
    });
    return { pool, store, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
