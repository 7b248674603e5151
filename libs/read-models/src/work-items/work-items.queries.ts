import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import { type AgentSummaryView, RANKED_LIST_FILTERS, type WorkItemQueryFilter, type WorkItemView } from '@app/domain';
import { CANDIDATE_ORDER, RECENCY_ORDER } from './work-items.order';

export type AgentSummary = AgentSummaryView & { revision: string };

/** Every filter but `archived` lists live items only: archived rows stay for reads by id and `filter=archived`. */
const WHERE: Record<WorkItemQueryFilter, string> = {
  all: 'NOT archived',
  open: "NOT archived AND state = 'open'",
  completed: "NOT archived AND state = 'completed'",
  current: "NOT archived AND state = 'open' AND is_current",
  queued: "NOT archived AND state = 'open' AND NOT is_current AND readiness = 'runnable'",
  blocked: "NOT archived AND NOT is_current AND readiness = 'blocked'",
  waiting_for_operator: "NOT archived AND readiness = 'waiting_for_operator'",
  runnable: "NOT archived AND readiness = 'runnable'",
  triggered: "NOT archived AND state = 'open' AND has_triggered_waits",
  archived: 'archived',
};

/** Read side of work items and agents: queries read Postgres, never the event store. */
export class WorkItemQueries {
  constructor(private readonly pool: Pool) {}

  async get(agentId: string, workItemId: string): Promise<WorkItemView | null> {
    const { rows } = await this.pool.query('SELECT view FROM work_items WHERE agent_id = $1 AND id = $2', [
      agentId,
      workItemId,
    ]);
    return rows.length ? (rows[0].view as WorkItemView) : null;
  }

  /** Whether the read model holds a row for the id, archived or not (rows are never deleted). */
  async exists(agentId: string, workItemId: string): Promise<boolean> {
    const { rows } = await this.pool.query('SELECT 1 FROM work_items WHERE agent_id = $1 AND id = $2', [
      agentId,
      workItemId,
    ]);
    return rows.length > 0;
  }

  /**
   * Agents with completed items older than the cut-off not archived yet (the automatic policy):
   * only the partial index of completed, unarchived rows is read. A completed item's updated_at
   * is its completed_at, or just after (a report promoted at its round's close): such an item
   * is found by a later pass.
   */
  async agentsToArchive(completedBefore: string, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ agent_id: string }>(
      `SELECT DISTINCT agent_id FROM work_items
        WHERE state = 'completed' AND NOT archived AND updated_at < $1 ORDER BY agent_id LIMIT $2`,
      [completedBefore, limit],
    );
    return rows.map((row) => row.agent_id);
  }

  async list(
    agentId: string,
    filter: WorkItemQueryFilter,
    limit: number,
  ): Promise<{ items: WorkItemView[]; total: number }> {
    const order = (RANKED_LIST_FILTERS as readonly string[]).includes(filter) ? CANDIDATE_ORDER : RECENCY_ORDER;
    const { rows } = await this.pool.query(
      `SELECT view, count(*) OVER () AS total FROM work_items WHERE agent_id = $1 AND ${WHERE[filter]} ORDER BY ${order} LIMIT $2`,
      [agentId, limit],
    );
    // limit >= 1, so no row means no match at all.
    const total = rows.length ? Number(rows[0].total) : 0;
    return { items: rows.map((row) => row.view as WorkItemView), total };
  }

  async agent(agentId: string): Promise<AgentSummary | null> {
    const { rows } = await this.pool.query('SELECT summary FROM agents WHERE agent_id = $1', [agentId]);
    return rows.length ? (rows[0].summary as AgentSummary) : null;
  }
}

export const WORK_ITEM_QUERIES = Symbol('WORK_ITEM_QUERIES');

export const workItemQueriesProvider: Provider = {
  provide: WORK_ITEM_QUERIES,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new WorkItemQueries(pool),
};
