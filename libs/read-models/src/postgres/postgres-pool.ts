import { Pool, type PoolConfig } from 'pg';

/** The read-model side's shared pool (also handed to the Postgres event store). */
export const POSTGRES_POOL = Symbol('POSTGRES_POOL');

export interface PoolLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * A pool whose idle-client errors (server restarted or stopped before we closed) are
 * logged, never thrown: an unhandled 'error' event would crash the process.
 */
export function createPostgresPool(url: string, logger: PoolLogger, overrides: PoolConfig = {}): Pool {
  const pool = new Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: 'agent-runtime',
    ...overrides,
  });
  pool.on('error', (error) => logger.warn({ err: { message: error.message, code: (error as { code?: string }).code } }, 'idle Postgres client error'));
  return pool;
}

/** Readiness probe: one round trip. */
export async function pingPostgres(pool: Pool): Promise<void> {
  await pool.query('SELECT 1');
}
