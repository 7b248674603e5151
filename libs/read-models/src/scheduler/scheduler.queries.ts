import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  BRIEF_LIST_KINDS, type BriefListQuery, type BriefView, clampListLimit, type DecisionView, type DeliverySummaryView, type ListReply,
  parseListParam,
} from '@app/domain';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import type { SchedulerStateView } from './scheduler-state.view';

/** An item of `GET decisions`: the decision view and the stream revision of its SchedulerDecisionRecorded. */
export type DecisionItem = DecisionView & { revision: string };
export type DeliverySummaryListQuery = { work_item_id?: string; limit?: number };

/** column = value; an undefined value is no condition. Columns are constants of this file, never input. */
type Condition = readonly [column: string, value: unknown];

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
    const conditions = [['kind', kind === 'all' ? undefined : kind], ['work_item_id', query.work_item_id]] as const;
    return this.list('briefs', agentId, conditions, NEWEST_FIRST, query.limit);
  }

  deliverySummaries(agentId: string, query: DeliverySummaryListQuery): Promise<ListReply<DeliverySummaryView>> {
    return this.list('delivery_summaries', agentId, [['work_item_id', query.work_item_id]], NEWEST_FIRST, query.limit);
  }

  /** `{items, total}`, total counting every match before the limit (default 20, 1..100). */
  private async list<V>(table: string, agentId: string, conditions: readonly Condition[], order: string, limit?: number): Promise<ListReply<V>> {
    const applied = conditions.filter(([, value]) => value !== undefined);
    const where = applied.map(([column], index) => ` AND ${column} = $${index + 3}`).join('');
    const { rows } = await this.pool.query(
      `SELECT view, count(*) OVER () AS total FROM ${table} WHERE agent_id = $1${where} ORDER BY ${order} LIMIT $2`,
      [agentId, clampListLimit(limit), ...applied.map(([, value]) => value)],
    );
    // The limit is at least 1, so no row means no match at all.
    return { items: rows.map((row) => row.view as V), total: rows.length ? Number(rows[0].total) : 0 };
  }
}

export const SCHEDULER_QUERIES = Symbol('SCHEDULER_QUERIES');

export const schedulerQueriesProvider: Provider = {
  provide: SCHEDULER_QUERIES,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new SchedulerQueries(pool),
};
