import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { AGENT_DIRECTORY, type AgendaPage, type AgendaQuery, type AgentDirectory } from '@app/core';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import { readAgendaPage } from '../scheduler/scheduler-agenda';
import { RESUME_AFTER_SQL } from '../projection/checkpoint';

/** The scheduler's view of which agents exist, from the `agents` read model and its checkpoint. */
export class PostgresAgentDirectory implements AgentDirectory {
  constructor(
    private readonly pool: Pool,
    private readonly projection = 'read_models',
  ) {}

  async agentIds(): Promise<string[]> {
    const { rows } = await this.pool.query<{ agent_id: string }>('SELECT agent_id FROM agents ORDER BY agent_id');
    return rows.map((row) => row.agent_id);
  }

  /** A page of the scheduler_agenda read model (migration 0018): what a starting scheduler evaluates, and its moving horizon. */
  agenda(query: AgendaQuery): Promise<AgendaPage> {
    return readAgendaPage(this.pool, query, this.projection);
  }

  /** The read models' resume point: past the last event when a saved server checkpoint covers it (ADR 0043). */
  async projectedUpTo(): Promise<bigint | null> {
    const { rows } = await this.pool.query<{ position: string }>(RESUME_AFTER_SQL, [this.projection]);
    const position = rows.length ? BigInt(rows[0].position) : -1n;
    return position < 0n ? null : position;
  }
}

export const agentDirectoryProvider: Provider = {
  provide: AGENT_DIRECTORY,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new PostgresAgentDirectory(pool),
};
