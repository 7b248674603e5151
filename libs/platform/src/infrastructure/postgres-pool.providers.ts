import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { LOGGER, type Logger } from '@app/core';
import { createPostgresPool, POSTGRES_POOL, runMigrations } from '@app/read-models';
import { POSTGRES_CONNECTION, type PostgresConnection } from '../postgres/postgres-connection';

/** The pool, migrated before anyone gets it. Closed by the infrastructure lifecycle. */
export const postgresPoolProvider: Provider = {
  provide: POSTGRES_POOL,
  inject: [POSTGRES_CONNECTION, LOGGER],
  useFactory: async (connection: PostgresConnection, logger: Logger): Promise<Pool> => {
    const log = logger.child({ component: 'postgres' });
    const pool = createPostgresPool(connection.url, log);
    try {
      await runMigrations(pool, log);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    return pool;
  },
};
