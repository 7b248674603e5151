import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Pool } from 'pg';
import type { AgentState } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { agentStateDecider } from '@app/core';
import { runMigrations, ProjectionRunner, READ_MODEL_PROJECTORS, READ_MODELS_PROJECTION } from '@app/read-models';

/** The read-model tables of the runtime's runner, with their keys (the order rows are compared in). */
export const READ_MODEL_TABLES = READ_MODEL_PROJECTORS.flatMap((projector) => projector.tables);

/** A connection string whose sessions use `schema` (created by the caller). */
export function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

export interface ReadModelSnapshot {
  /** The checkpoint the rows were committed with. */
  checkpoint: bigint;
  tables: Record<string, unknown[]>;
}

/**
 * Every read-model table as JSON rows in key order, with the checkpoint, from one snapshot
 * (REPEATABLE READ): rows and checkpoint commit together, so they match even while the live
 * projector keeps applying.
 */
export async function snapshotReadModels(pool: Pool, projection = READ_MODELS_PROJECTION): Promise<ReadModelSnapshot> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows: checkpoint } = await client.query(
      'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1',
      [projection],
    );
    const tables: Record<string, unknown[]> = {};
    for (const table of READ_MODEL_TABLES) {
      const { rows } = await client.query(
        `SELECT to_jsonb(t) AS row FROM ${table.name} t ORDER BY ${table.key.join(', ')}`,
      );
      tables[table.name] = rows.map((r) => r.row);
    }
    await client.query('COMMIT');
    return { checkpoint: checkpoint.length ? BigInt(checkpoint[0].position) : -1n, tables };
  } finally {
    client.release();
  }
}

export interface RebuildComparison {
  events: number;
  rows: number;
  /** One line per differing table (empty: the live read models equal the rebuild). */
  differences: string[];
}

/**
 * Replays the store from position 0 up to the live checkpoint with the runtime's own runner into
 * a fresh schema of the same database (the live tables are not touched), then compares every
 * table row by row with the live read models as they were at that checkpoint.
 */
export async function compareWithRebuild(url: string, store: EventStore): Promise<RebuildComparison> {
  const schema = `rebuild_${randomBytes(6).toString('hex')}`;
  const admin = new Pool({ connectionString: url, max: 1 });
  admin.on('error', () => undefined);
  const live = new Pool({ connectionString: url, max: 2 });
  live.on('error', () => undefined);
  let copy: Pool | undefined;
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    copy = new Pool({ connectionString: withSchema(url, schema), max: 4 });
    copy.on('error', () => undefined);
    await runMigrations(copy, { info: () => undefined });
    const { checkpoint, tables: actual } = await snapshotReadModels(live);
    const runner = new ProjectionRunner<AgentState>(copy, store, agentStateDecider, READ_MODEL_PROJECTORS, {
      name: READ_MODELS_PROJECTION,
    });
    const events = await runner.rebuild(undefined, { upTo: checkpoint });
    const expected = (await snapshotReadModels(copy)).tables;
    const differences: string[] = [];
    let rows = 0;
    for (const table of READ_MODEL_TABLES) {
      rows += expected[table.name].length;
      if (!isDeepStrictEqual(actual[table.name], expected[table.name]))
        differences.push(describeDifference(table.name, table.key, actual[table.name], expected[table.name]));
    }
    return { events, rows, differences };
  } finally {
    await copy?.end().catch(() => undefined);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    await live.end().catch(() => undefined);
  }
}

function describeDifference(table: string, key: string[], live: unknown[], rebuilt: unknown[]): string {
  const keyOf = (row: unknown) => JSON.stringify(key.map((column) => (row as Record<string, unknown>)[column]));
  const liveByKey = new Map(live.map((row) => [keyOf(row), row]));
  const rebuiltByKey = new Map(rebuilt.map((row) => [keyOf(row), row]));
  const missing = [...rebuiltByKey.keys()].filter((k) => !liveByKey.has(k));
  const extra = [...liveByKey.keys()].filter((k) => !rebuiltByKey.has(k));
  const changed = [...rebuiltByKey.keys()].filter(
    (k) => liveByKey.has(k) && !isDeepStrictEqual(liveByKey.get(k), rebuiltByKey.get(k)),
  );
  const sample = changed[0]
    ? `; first changed ${changed[0]}: live ${JSON.stringify(liveByKey.get(changed[0]))} vs rebuilt ${JSON.stringify(rebuiltByKey.get(changed[0]))}`
    : '';
  return `${table}: ${live.length} live rows vs ${rebuilt.length} rebuilt; missing ${missing.slice(0, 5).join(' ')} (${missing.length}), extra ${extra.slice(0, 5).join(' ')} (${extra.length}), changed ${changed.length}${sample}`;
}
