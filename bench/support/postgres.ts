import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { ensureSchema, type EventStore } from '@app/event-store';
import { openTestEventStore } from '@app/event-store/testing';
import { AGENT_STREAM_PREFIX } from '@app/core';
import { startEmbeddedPostgres } from '@app/platform';
import { createPostgresPool, runMigrations } from '@app/read-models';

/**
 * The one Postgres every figure and its baseline run on: an embedded server started into a
 * temporary directory, or the server of DATABASE_URL. Each figure works in its own fresh
 * schema (`search_path` in the connection string), so figures never see each other's rows
 * and nothing outside those schemas is touched.
 */
export interface BenchPostgres {
  /** `server_version` of the server. */
  version: string;
  embedded: boolean;
  /** The durability and memory settings that shape the figures, e.g. `fsync on, synchronous_commit on, …`. */
  settings(): Promise<string>;
  /** A small pool on the server's database, for sampling pg_stat_activity. */
  monitor: Pool;
  /** A connection string to a new, empty schema. */
  isolated(name: string): Promise<string>;
  /** A pool that close() ends. */
  pool(url: string, max?: number): Pool;
  /** A pool on an isolated schema with the read-model migrations and the event store schema applied. */
  migratedPool(url: string, max?: number): Promise<Pool>;
  close(): Promise<void>;
}

const SILENT = { info: () => undefined };

/** 512 MB of WAL: more than figure 3 writes in a separate run. */
const WAL_SEGMENTS_AHEAD = 32;

/**
 * A fresh cluster creates each 16 MB WAL segment (written with zeros and synced) in the commit of
 * the transaction that first needs it, while every other commit waits: at figure 3's half rate one
 * every 8 s or so, each a stall of 12-15 ms (docs/benchmarks.md, "Session 20"). A server that has
 * run through a checkpoint renames its old segments into the next ones instead. This brings the
 * embedded server there before any figure runs: `segments` segments written and switched, then a
 * checkpoint, which recycles them ahead of the current one.
 */
async function recycleWalAhead(admin: Pool, segments: number): Promise<void> {
  for (let i = 0; i < segments; i++) {
    // A WAL record without a table, then the switch to the next segment (which creates it).
    await admin.query(`SELECT pg_logical_emit_message(false, 'bench', '')`);
    await admin.query('SELECT pg_switch_wal()');
  }
  await admin.query('CHECKPOINT');
}

export async function openBenchPostgres(
  log: (line: string) => void,
  options: { recycleWal?: boolean } = {},
): Promise<BenchPostgres> {
  const external = process.env.DATABASE_URL;
  let baseUrl: string;
  let stopServer = async () => undefined as void;
  let tempDir: string | null = null;
  if (external) {
    baseUrl = external;
    log('Postgres: DATABASE_URL');
  } else {
    tempDir = mkdtempSync(join(tmpdir(), 'runtime-bench-'));
    chmodSync(tempDir, 0o755);
    const started = Date.now();
    const handle = await startEmbeddedPostgres({ dataDir: join(tempDir, 'pg') });
    baseUrl = handle.url;
    stopServer = () => handle.stop();
    log(`Postgres: embedded in ${tempDir} (started in ${Date.now() - started} ms)`);
  }
  const pools = new Set<Pool>();
  const schemas: string[] = [];
  const admin = new Pool({ connectionString: baseUrl, max: 1 });
  admin.on('error', () => undefined);
  const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
  // Not on a server of DATABASE_URL (not ours to checkpoint), nor in a smoke run (its numbers mean nothing).
  const walAhead = !external && options.recycleWal !== false ? WAL_SEGMENTS_AHEAD : 0;
  if (walAhead > 0) {
    const started = Date.now();
    await recycleWalAhead(admin, walAhead);
    log(`Postgres: ${walAhead} WAL segments recycled ahead (${Date.now() - started} ms)`);
  }
  const stamp = `${process.pid}_${Date.now().toString(36)}`;

  const monitor = new Pool({ connectionString: baseUrl, max: 1 });
  monitor.on('error', () => undefined);
  // The runtime's pool settings (idle clients kept 30 s): with pg's default of 10 s, a pool idle while the
  // other servers of an interleaved figure ran opened its connections again at the start of each of its runs.
  // No limit on the wait for a client, as before: a figure may queue more work than its pool runs at once.
  const pool = (url: string, max = 10) => {
    const created = createPostgresPool(
      url,
      { warn: () => undefined },
      { max, application_name: 'runtime-bench', connectionTimeoutMillis: 0 },
    );
    pools.add(created);
    const end = created.end.bind(created);
    created.end = (() => {
      pools.delete(created);
      return end();
    }) as Pool['end'];
    return created;
  };

  return {
    version: rows[0].server_version,
    embedded: !external,
    monitor,
    async settings() {
      const names = ['fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers', 'max_connections'];
      const values = await Promise.all(
        names.map(async (name) => (await admin.query(`SHOW ${name}`)).rows[0][name] as string),
      );
      const listed = names.map((name, i) => `${name} ${values[i]}`).join(', ');
      return walAhead > 0 ? `${listed}, ${walAhead} WAL segments recycled ahead` : listed;
    },
    async isolated(name: string) {
      const schema = `bench_${name}_${stamp}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
      await admin.query(`CREATE SCHEMA ${schema}`);
      schemas.push(schema);
      const url = new URL(baseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return url.toString();
    },
    pool,
    async migratedPool(url: string, max = 10) {
      const created = pool(url, max);
      await runMigrations(created, SILENT);
      await ensureSchema(created);
      return created;
    },
    async close() {
      await Promise.all([...pools].map((p) => p.end().catch(() => undefined)));
      if (external) {
        for (const schema of schemas)
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      }
      await monitor.end().catch(() => undefined);
      await admin.end().catch(() => undefined);
      await stopServer();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

/**
 * The figures' event store, from the one place the test harnesses take it: the Postgres store on
 * the figure's schema, or with TEST_EVENT_STORE=esdb the run's EventStoreDB (a stream namespace per
 * schema). Figures that compare against raw Postgres then measure EventStoreDB against it.
 */
export function benchStore(pool: Pool): Promise<EventStore> {
  const url = (pool as Pool & { options?: { connectionString?: string } }).options?.connectionString;
  return openTestEventStore(pool, url, [AGENT_STREAM_PREFIX]);
}
