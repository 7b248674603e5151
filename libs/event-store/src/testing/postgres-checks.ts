import type { Pool } from 'pg';
import { GLOBAL_ORDER_LOCK } from '../postgres/schema';

/** Pairs of events from `from` on whose positions and transaction ids disagree (ADR 0001: always 0). */
export async function xidOrderInversions(pool: Pool, from: bigint): Promise<number> {
  const { rows } = await pool.query<{ inversions: number }>(
    `SELECT count(*)::int AS inversions FROM (
       SELECT transaction_id, lag(transaction_id) OVER (ORDER BY global_position) AS previous
         FROM events WHERE global_position >= $1) t
      WHERE transaction_id < previous`,
    [from.toString()],
  );
  return rows[0].inversions;
}

/**
 * Connections back in their pool (not running a statement) that still hold the global order lock:
 * a leak (appends in flight hold it briefly while active).
 */
export async function leakedGlobalLocks(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2 AND l.granted AND a.state <> 'active'`,
    [GLOBAL_ORDER_LOCK[0], GLOBAL_ORDER_LOCK[1]],
  );
  return rows[0].n;
}
