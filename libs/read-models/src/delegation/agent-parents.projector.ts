import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import type { AgentState } from '@app/domain';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import type { Projector, ProjectionInput, RowWrite } from '../projection/projector';

/** A row per spawned agent (migration 0016): its parent and workspace mode, from AgentSpawned. */
export const agentParentsProjector: Projector<AgentState> = {
  name: 'agent_parents',
  tables: [{ name: 'agent_parents', key: ['agent_id'], columns: ['agent_id', 'parent_agent_id', 'workspace_mode'] }],
  project({ event, after }: ProjectionInput<AgentState>): RowWrite[] {
    if (event.type !== 'AgentSpawned' || after.agent_id === null || after.spawned === null) return [];
    const { parent_agent_id, workspace_mode } = after.spawned;
    return [{ table: 'agent_parents', row: { agent_id: after.agent_id, parent_agent_id, workspace_mode } }];
  },
};

export type AgentParentRow = { agent_id: string; parent_agent_id: string; workspace_mode: string; position: bigint };

/** The private children's parents projected after `after` (a position), oldest first. */
export interface AgentParentsQueries {
  since(after: bigint): Promise<AgentParentRow[]>;
}

export const AGENT_PARENTS_QUERIES = Symbol('AGENT_PARENTS_QUERIES');

export class PostgresAgentParents implements AgentParentsQueries {
  constructor(private readonly pool: Pool) {}

  async since(after: bigint): Promise<AgentParentRow[]> {
    const { rows } = await this.pool.query<{
      agent_id: string;
      parent_agent_id: string;
      workspace_mode: string;
      last_position: string;
    }>(
      `SELECT agent_id, parent_agent_id, workspace_mode, last_position::text AS last_position
         FROM agent_parents WHERE last_position > $1 ORDER BY last_position`,
      [after.toString()],
    );
    return rows.map((row) => ({ ...row, position: BigInt(row.last_position) }));
  }
}

export const agentParentsQueriesProvider: Provider = {
  provide: AGENT_PARENTS_QUERIES,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new PostgresAgentParents(pool),
};

/** The hand-off's checkpoint (migration 0016): null before its first save. */
export interface HandoffCheckpointStore {
  load(name: string): Promise<bigint | null>;
  save(name: string, position: bigint): Promise<void>;
}

export const HANDOFF_CHECKPOINTS = Symbol('HANDOFF_CHECKPOINTS');

export class PostgresHandoffCheckpoints implements HandoffCheckpointStore {
  constructor(private readonly pool: Pool) {}

  async load(name: string): Promise<bigint | null> {
    const { rows } = await this.pool.query<{ position: string }>(
      'SELECT position::text AS position FROM delegation_handoff_checkpoint WHERE name = $1',
      [name],
    );
    return rows.length === 0 ? null : BigInt(rows[0].position);
  }

  /** Never moves back (a slower second runner cannot undo a faster one's progress). */
  async save(name: string, position: bigint): Promise<void> {
    await this.pool.query(
      `INSERT INTO delegation_handoff_checkpoint (name, position) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET position = GREATEST(delegation_handoff_checkpoint.position, EXCLUDED.position),
         updated_at = now()`,
      [name, position.toString()],
    );
  }
}

export const handoffCheckpointsProvider: Provider = {
  provide: HANDOFF_CHECKPOINTS,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new PostgresHandoffCheckpoints(pool),
};
