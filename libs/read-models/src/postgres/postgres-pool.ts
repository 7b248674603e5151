import { Pool, type PoolClient, type PoolConfig } from 'pg';

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
  pool.on('error', (error) =>
    logger.warn(
      { err: { message: error.message, code: (error as { code?: string }).code } },
      'idle Postgres client error',
    ),
  );
  return pool;
}

/** Readiness probe: one round trip. */
export async function pingPostgres(pool: Pool): Promise<void> {
  await pool.query('SELECT 1');
}

/**
 * Runs `body` on a client checked out of the pool, inside BEGIN/COMMIT (ROLLBACK on error).
 *
 * A checked-out node-postgres client has no 'error' listener (the pool removes its own while the
 * client is lent), and a client whose server goes away emits 'error' even when a query is
 * running: without a listener that event is an uncaught exception that kills the process (seen
 * when the embedded Postgres stops under load). So the client carries a listener while it is
 * out, and a client that failed is destroyed, not returned to the pool.
 */
export async function withTransaction<T>(pool: Pool, body: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => {
      broken ??= rollback;
    });
    throw error;
  } finally {
    client.removeListener('error', onError);
    // A connection that failed (or could not roll back) is dropped by the pool, not reused.
    client.release(broken);
  }
}
