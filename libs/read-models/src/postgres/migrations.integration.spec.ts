import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { MIGRATIONS_DIR, readMigrations, runMigrations } from './migrations';
import { createPostgresPool } from './postgres-pool';

const silent = { info: () => undefined, warn: () => undefined };

/** A fresh database on the run's Postgres, so schema_migrations starts empty. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  const name = `migrations_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe('runMigrations on an empty database', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: Pool;
  let dir: string;
  beforeEach(async () => {
    db = await freshDatabase();
    pool = createPostgresPool(db.url, silent, { max: 8 });
    dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  });
  afterEach(async () => {
    await pool.end();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies the repository migrations in order, once', async () => {
    const versions = (await readMigrations()).map((m) => m.version);
    expect(versions[0]).toBe('0001_runtime_meta');
    expect([...versions].sort()).toEqual(versions);
    expect(await runMigrations(pool, silent)).toEqual(versions);
    expect(await runMigrations(pool, silent)).toEqual([]);
    const { rows } = await pool.query<{ value: string }>("SELECT value FROM runtime_meta WHERE key = 'schema_owner'");
    expect(rows).toEqual([{ value: 'agent-runtime' }]);
  });

  it('is safe when several processes start at once: each migration runs exactly once', async () => {
    writeFileSync(join(dir, '0001_a.sql'), 'CREATE TABLE a (id int primary key); INSERT INTO a VALUES (1);');
    writeFileSync(join(dir, '0002_b.sql'), 'CREATE TABLE b (id int primary key);');
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => runMigrations(pool, silent, dir)));
    expect(results.flat().sort()).toEqual(['0001_a', '0002_b']);
    expect((await pool.query('SELECT count(*)::int AS n FROM a')).rows[0]).toEqual({ n: 1 });
  });

  it('rolls back a failing migration entirely', async () => {
    writeFileSync(join(dir, '0001_ok.sql'), 'CREATE TABLE ok (id int);');
    writeFileSync(join(dir, '0002_bad.sql'), 'CREATE TABLE broken (id int); SELECT * FROM missing_table;');
    await expect(runMigrations(pool, silent, dir)).rejects.toThrow(/missing_table/);
    const { rows } = await pool.query("SELECT to_regclass('ok') AS ok, to_regclass('schema_migrations') AS sm");
    expect(rows[0]).toEqual({ ok: null, sm: null });
  });

  it('refuses a migration edited after it was applied', async () => {
    writeFileSync(join(dir, '0001_a.sql'), 'CREATE TABLE a (id int);');
    await runMigrations(pool, silent, dir);
    writeFileSync(join(dir, '0001_a.sql'), 'CREATE TABLE a (id bigint);');
    await expect(runMigrations(pool, silent, dir)).rejects.toThrow(/0001_a was changed after it was applied/);
  });

  it('ignores files that are not migrations', async () => {
    writeFileSync(join(dir, 'README.md'), '# notes');
    writeFileSync(join(dir, '0001_a.sql'), 'SELECT 1;');
    expect(await runMigrations(pool, silent, dir)).toEqual(['0001_a']);
  });
});

describe('MIGRATIONS_DIR', () => {
  it('resolves to the repository folder, not the compiled one', () => {
    expect(MIGRATIONS_DIR).toMatch(/libs\/read-models\/migrations$/);
    expect(MIGRATIONS_DIR).not.toContain('/dist/');
  });
});
