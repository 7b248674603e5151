import type { Pool } from 'pg';

/** The fleet at a glance, from the read models (GET /metrics computes it at scrape time). */
export interface FleetGauges {
  /** Agents by posture (`active`, `asleep`, `paused`, `stopped`...). */
  agentsByPosture: Record<string, number>;
  queuedMessages: number;
  openWorkItems: number;
  /** Open dead letters by projection. */
  openDeadLetters: Record<string, number>;
}

/**
 * One pass over scheduler_state (a row per agent) and the open dead letters: cost per scrape,
 * never per event.
 */
export async function fleetGauges(pool: Pool): Promise<FleetGauges> {
  const [agents, letters] = await Promise.all([
    pool.query<{ posture: string; agents: number; queued: string; open: string }>(
      `SELECT posture, count(*)::int AS agents, coalesce(sum(queued_messages), 0)::text AS queued,
              coalesce(sum(open_work_items), 0)::text AS open
         FROM scheduler_state GROUP BY posture`,
    ),
    pool.query<{ projection: string; open: number }>(
      `SELECT projection, count(*)::int AS open FROM projection_dead_letters
        WHERE resolved_at IS NULL GROUP BY projection`,
    ),
  ]);
  const gauges: FleetGauges = { agentsByPosture: {}, queuedMessages: 0, openWorkItems: 0, openDeadLetters: {} };
  for (const row of agents.rows) {
    gauges.agentsByPosture[row.posture] = row.agents;
    gauges.queuedMessages += Number(row.queued);
    gauges.openWorkItems += Number(row.open);
  }
  for (const row of letters.rows) gauges.openDeadLetters[row.projection] = row.open;
  return gauges;
}
