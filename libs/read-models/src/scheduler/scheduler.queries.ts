import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  BRIEF_LIST_KINDS,
  type BriefListQuery,
  type BriefView,
  type DecisionView,
  type DeliverySummaryView,
  type ListReply,
  parseListParam,
} from '@app/domain';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import { type Condition, listViews } from '../records/list-rows';
import type { SchedulerStateView } from './scheduler-state.view';

/** An item of `GET decisions`: the decision view and the stream revision of its SchedulerDecisionRecorded. */
export type DecisionItem = DecisionView & { revision: string };
export type DeliverySummaryListQuery = { work_item_id?: string; limit?: number };

const NEWEST_DECISION_FIRST = 'revision DESC';
/** The domain's brief order (listBriefs): newest first, then id descending. */
const NEWEST_FIRST = 'created_at DESC, id COLLATE "C" DESC';

/** Read side of the scheduler: Postgres only, never the event store. */
export class SchedulerQueries {
  constructor(private readonly pool: Pool) {}

  async state(agentId: string): Promise<SchedulerStateView | null> {
    const { rows } = await this.pool.query('SELECT view FROM scheduler_state WHERE agent_id = $1', [agentId]);
    return rows.length ? (rows[0].view as SchedulerStateView) : null;
  }

  decisions(agentId: string, limit?: number): Promise<ListReply<DecisionItem>> {
    return this.list('decisions', agentId, [], NEWEST_DECISION_FIRST, limit);
  }

  briefs(agentId: string, query: BriefListQuery): Promise<ListReply<BriefView>> {
    const kind = parseListParam(query.kind, 'kind', BRIEF_LIST_KINDS, 'all');
    const conditions = [
      ['kind', kind === 'all' ? undefined : kind],
      ['work_item_id', query.work_item_id],
    ] as const;
    return this.list('briefs', agentId, conditions, NEWEST_FIRST, query.limit);
  }

  deliverySummaries(agentId: string, query: DeliverySummaryListQuery): Promise<ListReply<DeliverySummaryView>> {
    return this.list('delivery_summaries', agentId, [['work_item_id', query.work_item_id]], NEWEST_FIRST, query.limit);
  }
  private list<V>(
    table: string,
    agentId: string,
    conditions: readonly Condition[],
    order: string,
    limit?: number,
  ): Promise<ListReply<V>> {
    return listViews<V>(this.pool, table, agentId, conditions, order, limit);
  }
}

export const SCHEDULER_QUERIES = Symbol('SCHEDULER_QUERIES');

export const schedulerQueriesProvider: Provider = {
  provide: SCHEDULER_QUERIES,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new SchedulerQueries(pool),
};
