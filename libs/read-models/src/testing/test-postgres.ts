import { Pool } from 'pg';
import { ensureSchema, PostgresEventStore } from '@app/event-store';
import { runMigrations } from '../postgres/migrations';

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the tests through jest (globalSetup starts Postgres)');
  return url;
}

/**
 * A connection string to a fresh, empty schema of the run's Postgres: for suites that
 * truncate or rebuild tables (everything they create lives in that schema).
 */
export async function isolatedDatabaseUrl(prefix = 'test'): Promise<string> {
  const schema = `${prefix}_${process.pid}_${Date.now().toString(36)}_${(counter += 1)}`
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase();
  const admin = new Pool({ connectionString: databaseUrl(), max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl());
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** A pool on the run's Postgres (embedded by globalSetup, or DATABASE_URL), migrated, store schema ensured. */
export async function testPool(max = 10, url = databaseUrl()): Promise<Pool> {
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  await runMigrations(pool, { info: () => undefined });
  await ensureSchema(pool);
  return pool;
}

export async function testStore(pool: Pool): Promise<PostgresEventStore> {
  return new PostgresEventStore(pool);
}

let counter = 0;
/** Fresh ids per test instead of truncation. */
export function freshId(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}
