import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import { type AgentSummaryView, RANKED_LIST_FILTERS, type WorkItemListFilter, type WorkItemView } from '@app/domain';
import { CANDIDATE_ORDER, RECENCY_ORDER } from './work-items.order';

export type AgentSummary = AgentSummaryView & { revision: string };

const WHERE: Record<WorkItemListFilter, string> = {
  all: 'TRUE',
  open: "state = 'open'",
  completed: "state = 'completed'",
  current: "state = 'open' AND is_current",
  queued: "state = 'open' AND NOT is_current AND readiness = 'runnable'",
  blocked: "NOT is_current AND readiness = 'blocked'",
  waiting_for_operator: "readiness = 'waiting_for_operator'",
  runnable: "readiness = 'runnable'",
  triggered: "state = 'open' AND has_triggered_waits",
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

  async list(
    agentId: string,
    filter: WorkItemListFilter,
    limit: number,
  ): Promise<{ items: WorkItemView[]; total: number }> {
    const order = RANKED_LIST_FILTERS.includes(filter) ? CANDIDATE_ORDER : RECENCY_ORDER;
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
