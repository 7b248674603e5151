import type { Pool } from 'pg';

export interface ProjectionHealth {
  projection: string;
  /** Position of the last applied event (decimal string, -1 before any). */
  checkpoint: string;
  /** Newest committed event, or null for an empty store. */
  head: string | null;
  caught_up: boolean;
  /** Position of the first open dead letter (its agent is parked, ADR 0015), or null. */
  stalled_at: string | null;
  /** Agents parked by a poison event: their later events wait for a skip or a retry. */
  parked_agents: number;
}

const HEALTH_SQL = `SELECT c.projection, c.position::text AS checkpoint,
    (SELECT min(d.position)::text FROM projection_dead_letters d WHERE d.projection = c.projection AND d.resolved_at IS NULL) AS stalled_at,
    (SELECT count(*)::int FROM projection_parked_agents p WHERE p.projection = c.projection) AS parked_agents,
    extract(epoch FROM now() - c.updated_at)::float8 AS idle_seconds
  FROM projection_checkpoints c`;

interface HealthRow {
  projection: string;
  checkpoint: string;
  stalled_at: string | null;
  parked_agents: number;
  idle_seconds: number;
}

function health(row: HealthRow, head: bigint | null): ProjectionHealth {
  const checkpoint = BigInt(row.checkpoint);
  return {
    projection: row.projection,
    checkpoint: checkpoint.toString(),
    head: head === null ? null : head.toString(),
    caught_up: head === null || checkpoint >= head,
    stalled_at: row.stalled_at,
    parked_agents: row.parked_agents,
  };
}

/** The read-model projection's progress against the store's head, for /health. Null before any run. */
export async function projectionHealth(
  pool: Pool,
  head: bigint | null,
  projection = 'read_models',
): Promise<ProjectionHealth | null> {
  const { rows } = await pool.query<HealthRow>(`${HEALTH_SQL} WHERE c.projection = $1`, [projection]);
  return rows.length === 0 ? null : health(rows[0], head);
}

/** One projection's readiness: `stalled` (an open dead letter: an agent is parked) or `lagging`. */
export interface ProjectionReadiness extends ProjectionHealth {
  ready: boolean;
  /** null when ready. */
  reason: 'projection_stalled' | 'projection_lagging' | null;
  /** Seconds since the checkpoint last moved. */
  idle_seconds: number;
}

/**
 * Every projection's readiness (GET /health/ready, `cli check`): not ready while a dead letter
 * is open, or while events wait and the checkpoint has not moved for `maxLagSeconds`.
 */
export async function projectionReadiness(
  pool: Pool,
  head: bigint | null,
  maxLagSeconds: number,
): Promise<ProjectionReadiness[]> {
  const { rows } = await pool.query<HealthRow>(`${HEALTH_SQL} ORDER BY c.projection`);
  return rows.map((row) => {
    const report = health(row, head);
    const idle = Math.max(0, Math.round(row.idle_seconds));
    const reason =
      report.stalled_at !== null
        ? ('projection_stalled' as const)
        : !report.caught_up && idle > maxLagSeconds
          ? ('projection_lagging' as const)
          : null;
    return { ...report, ready: reason === null, reason, idle_seconds: idle };
  });
}

/** READY_MAX_LAG_SECONDS unset: events may wait 30 s on a checkpoint that does not move. */
export const DEFAULT_READY_MAX_LAG_SECONDS = 30;
