import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { fromRepoRoot } from '@app/core';
import { withTransaction } from './postgres-pool';

export interface Migration {
  /** File name without `.sql`, e.g. `0001_runtime_meta`: the key in schema_migrations. */
  version: string;
  sql: string;
  checksum: string;
}

export interface MigrationLogger {
  info(fields: Record<string, unknown>, message: string): void;
}

/** Resolved from the repository root, so the runner works from the sources and from dist/. */
export const MIGRATIONS_DIR = fromRepoRoot('libs', 'read-models', 'migrations');
const FILE_NAME = /^(\d{4}_[a-z0-9_]+)\.sql$/;
// NOTE: stored contract: every process serialises migrations on this advisory lock key.
const MIGRATION_LOCK_KEY = 7_340_021_001;

export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await fs.readdir(dir)).filter((name) => FILE_NAME.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await fs.readFile(join(dir, name), 'utf8');
      return { version: name.replace(/\.sql$/, ''), sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Apply pending migrations in order, in one transaction holding an advisory lock, so
 * concurrent starts are safe: the second waits, then finds nothing to do. A migration
 * edited after it was applied is refused (checksum mismatch).
 */
export async function runMigrations(
  pool: Pool,
  logger: MigrationLogger,
  dir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const done = await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: string; checksum: string }>(
      'SELECT version, checksum FROM schema_migrations',
    );
    const applied = new Map(rows.map((row) => [row.version, row.checksum]));
    const added: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.version);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum)
          throw new Error(
            `migration ${migration.version} was changed after it was applied: add a new migration instead`,
          );
        continue;
      }
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)', [
        migration.version,
        migration.checksum,
      ]);
      added.push(migration.version);
    }
    return added;
  });
  if (done.length > 0) logger.info({ applied: done }, 'migrations applied');
  return done;
}
