import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { type AgentSnapshot, SNAPSHOT_STORE, type SnapshotStore } from '@app/core';
import { POSTGRES_POOL } from '../postgres/postgres-pool';

/** Agent snapshots in Postgres: newest wins, an older snapshot never replaces a newer one. */
export class PostgresSnapshotStore implements SnapshotStore {
  constructor(private readonly pool: Pool) {}

  async load<S>(agentId: string, stateVersion: number): Promise<AgentSnapshot<S> | null> {
    const { rows } = await this.pool.query(
      'SELECT revision::text AS revision, state, commands FROM agent_snapshots WHERE agent_id = $1 AND state_version = $2',
      [agentId, stateVersion],
    );
    if (rows.length === 0) return null;
    const row = rows[0] as { revision: string; state: S; commands: AgentSnapshot<S>['commands'] };
    return {
      agent_id: agentId,
      revision: BigInt(row.revision),
      state_version: stateVersion,
      state: row.state,
      commands: row.commands,
    };
  }

  async save<S>(snapshot: AgentSnapshot<S>): Promise<void> {
    await this.pool.query(
      `INSERT INTO agent_snapshots (agent_id, revision, state_version, state, commands)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (agent_id) DO UPDATE SET revision = EXCLUDED.revision, state_version = EXCLUDED.state_version,
         state = EXCLUDED.state, commands = EXCLUDED.commands, taken_at = now()
       WHERE agent_snapshots.revision < EXCLUDED.revision OR agent_snapshots.state_version <> EXCLUDED.state_version`,
      [
        snapshot.agent_id,
        snapshot.revision.toString(),
        snapshot.state_version,
        JSON.stringify(snapshot.state),
        JSON.stringify(snapshot.commands),
      ],
    );
  }
}

export const snapshotStoreProvider: Provider = {
  provide: SNAPSHOT_STORE,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new PostgresSnapshotStore(pool),
};
