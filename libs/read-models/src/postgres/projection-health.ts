import type { Pool } from 'pg';

export interface ProjectionHealth {
  projection: string;
  /** Position of the last applied event (decimal string, -1 before any). */
  checkpoint: string;
  /** Newest committed event, or null for an empty store. */
  head: string | null;
  caught_up: boolean;
  /** Position of an unresolved poison event the projection is stalled at, or null. */
  stalled_at: string | null;
}

/** The read-model projection's progress against the store's head, for /health. Null before any run. */
export async function projectionHealth(
  pool: Pool,
  head: bigint | null,
  projection = 'read_models',
): Promise<ProjectionHealth | null> {
  const { rows } = await pool.query<{ checkpoint: string; stalled_at: string | null }>(
    `SELECT c.position::text AS checkpoint,
            (SELECT min(d.position)::text FROM projection_dead_letters d WHERE d.projection = c.projection AND d.resolved_at IS NULL) AS stalled_at
       FROM projection_checkpoints c WHERE c.projection = $1`,
    [projection],
  );
  if (rows.length === 0) return null;
  const checkpoint = BigInt(rows[0].checkpoint);
  return {
    projection,
    checkpoint: checkpoint.toString(),
    head: head === null ? null : head.toString(),
    caught_up: head === null || checkpoint >= head,
    stalled_at: rows[0].stalled_at,
  };
}
