import type { DeadLetterInput } from '@app/domain';
import type { SqlReader } from '../audit/projections-admin';

/**
 * The open dead letter that parks this agent in a read-model projection (ADR 0015), if any: the
 * closure's one input the agent's stream cannot hold (a read model could not apply one of its
 * events). The earliest, when several projections parked it.
 */
export async function agentDeadLetter(sql: SqlReader, agentId: string): Promise<DeadLetterInput | null> {
  const { rows } = await sql.query(
    `SELECT p.projection, p.letter_position::text AS position, p.from_revision::text AS revision,
            COALESCE(d.event_type, 'unknown') AS event_type
       FROM projection_parked_agents p
       LEFT JOIN projection_dead_letters d ON d.projection = p.projection AND d.position = p.letter_position
      WHERE p.agent_id = $1
      ORDER BY p.letter_position, p.projection
      LIMIT 1`,
    [agentId],
  );
  if (rows.length === 0) return null;
  const row = rows[0];
  return {
    projection: String(row.projection),
    position: String(row.position),
    revision: String(row.revision),
    event_type: String(row.event_type),
  };
}
