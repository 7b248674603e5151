import type { Pool } from 'pg';
import { clampListLimit, type ListReply } from '@app/domain';

/** column = value; an undefined value is no condition. Columns are constants of the caller, never input. */
export type Condition = readonly [column: string, value: unknown];

/**
 * The one list shape of the read side: `{items, total}` from a table with a `view` column,
 * scoped to one agent; `total` counts every match before the limit (default 20, 1..100).
 */
export async function listViews<V>(
  pool: Pool,
  table: string,
  agentId: string,
  conditions: readonly Condition[],
  order: string,
  limit?: number,
): Promise<ListReply<V>> {
  const applied = conditions.filter(([, value]) => value !== undefined);
  const where = applied.map(([column], index) => ` AND ${column} = $${index + 3}`).join('');
  const { rows } = await pool.query(
    `SELECT view, count(*) OVER () AS total FROM ${table} WHERE agent_id = $1${where} ORDER BY ${order} LIMIT $2`,
    [agentId, clampListLimit(limit), ...applied.map(([, value]) => value)],
  );
  // The limit is at least 1, so no row means no match at all.
  return { items: rows.map((row) => row.view as V), total: rows.length ? Number(rows[0].total) : 0 };
}
