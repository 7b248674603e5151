import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RuntimeConfig } from '../config/runtime-config';
import { startEmbeddedPostgres } from './embedded-postgres';

/** Where Postgres is, and who stops it. */
export interface PostgresConnection {
  readonly url: string;
  /** True when this process started the server (embedded mode). */
  readonly embedded: boolean;
  /** Stops the embedded server; a no-op for an external DATABASE_URL. Idempotent. */
  close(): Promise<void>;
}

export const POSTGRES_CONNECTION = Symbol('POSTGRES_CONNECTION');

/**
 * DATABASE_URL when set, else a persistent embedded server in `<RUNTIME_DATA_DIR>/pg`
 * on a free port. Called by the composition root before Nest starts, so a failed
 * start-up can still stop the server (see docs/decisions/0003-platform.md).
 */
export async function openPostgresConnection(
  config: Pick<RuntimeConfig, 'databaseUrl' | 'dataDir'>,
  logger: Logger,
): Promise<PostgresConnection> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, embedded: false, close: async () => undefined };
  }
  const log = logger.child({ component: 'embedded-postgres' });
  const dataDir = join(config.dataDir, 'pg');
  const started = Date.now();
  const handle = await startEmbeddedPostgres({ dataDir, releaseSignals: true, onLog: (line) => log.debug(line) });
  const cluster = handle.clusterDir === dataDir ? {} : { cluster_dir: handle.clusterDir };
  log.info(
    { data_dir: dataDir, ...cluster, port: handle.port, startup_ms: Date.now() - started },
    'embedded Postgres started',
  );
  let closing: Promise<void> | null = null;
  return {
    url: handle.url,
    embedded: true,
    close: () => {
      closing ??= handle.stop().then(() => log.info({ data_dir: dataDir }, 'embedded Postgres stopped'));
      return closing;
    },
  };
}
