import type { Pool, PoolClient } from 'pg';
import type { ApplyHook } from '@app/read-models';

/**
 * The projector's apply log: one row per position per batch a runner committed, written inside
 * the batch's own transaction (ProjectionRunner's apply hook). A position applied twice shows up
 * twice; a position never applied is missing; a batch lost to a crash leaves no row. No unique
 * constraint on purpose: the log must be able to show a double apply.
 */
export async function ensureApplyLog(pool: Pool | PoolClient): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS reliability_apply_log (
    runner text NOT NULL, position bigint NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
}

export function applyLogHook(runner: string): ApplyHook {
  return async (positions, client) => {
    await client.query('INSERT INTO reliability_apply_log (runner, position) SELECT $1, unnest($2::bigint[])', [
      runner,
      positions.map(String),
    ]);
  };
}

export interface ApplyLogEntry {
  position: bigint;
  times: number;
  runners: string[];
}

export async function readApplyLog(pool: Pool, after: bigint): Promise<ApplyLogEntry[]> {
  const { rows } = await pool.query(
    `SELECT position::text AS position, count(*)::int AS times, array_agg(runner ORDER BY applied_at) AS runners
     FROM reliability_apply_log WHERE position > $1 GROUP BY position ORDER BY position`,
    [after.toString()],
  );
  return rows.map((row) => ({ position: BigInt(row.position), times: row.times, runners: row.runners }));
}
