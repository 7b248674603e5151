import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  isOverdue,
  type ListReply,
  type MessageStatus,
  type MessageView,
  type TaskListQuery,
  type TaskView,
  type TimerListQuery,
  type TimerView,
  type WaitingIntentListQuery,
  type WaitingIntentView,
  parseListParam,
  TASK_LIST_FILTERS,
  TIMER_LIST_STATUSES,
  toTimerView,
  WAITING_INTENT_LIST_STATUSES,
} from '@app/domain';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import { type Condition, listViews } from './list-rows';

/** Checked at the edges (the DTO's list); `queued` by default. */
export type MessageListStatus = MessageStatus | 'all';
export type MessageListQuery = { status?: MessageListStatus; limit?: number };

// Orders are the domain's list orders (views/*.view.ts), written in SQL.
const INTENT_ORDER = 'created_at DESC, id COLLATE "C" DESC';
const TASK_ORDER = 'created_at DESC, id COLLATE "C" ASC';
const TIMER_ORDER = 'fire_at ASC, id COLLATE "C" ASC';
/** The queue in the order the scheduler takes it: band, then arrival. Other statuses: newest first. */
const QUEUE_ORDER = 'priority_rank ASC, seq ASC';
const RECENT_MESSAGE_ORDER = 'seq DESC';

const allAsUndefined = <T extends string>(value: T): Exclude<T, 'all'> | undefined =>
  (value === 'all' ? undefined : value) as Exclude<T, 'all'> | undefined;

/** Read side of waiting intents, tasks, timers and messages: Postgres only, never the event store. */
export class RecordQueries {
  constructor(private readonly pool: Pool) {}

  waitingIntents(agentId: string, query: WaitingIntentListQuery): Promise<ListReply<WaitingIntentView>> {
    const status = parseListParam(query.status, 'status', WAITING_INTENT_LIST_STATUSES, 'all');
    const conditions = [
      ['status', allAsUndefined(status)],
      ['work_item_id', query.work_item_id],
    ] as const;
    return this.list('waiting_intents', agentId, conditions, INTENT_ORDER, query.limit);
  }

  /** `overdue` is computed against `query.now` (the reader's clock), as the domain's view does. */
  async tasks(agentId: string, query: TaskListQuery): Promise<ListReply<TaskView>> {
    const filter = parseListParam(query.filter, 'filter', TASK_LIST_FILTERS, 'all');
    const terminal = filter === 'all' ? undefined : filter === 'terminal';
    const list = await this.list<TaskView>(
      'tasks',
      agentId,
      [
        ['terminal', terminal],
        ['work_item_id', query.work_item_id],
      ],
      TASK_ORDER,
      query.limit,
    );
    const now = query.now ?? null;
    return {
      items: list.items.map((task) => (now === null ? task : { ...task, overdue: isOverdue(task, now) })),
      total: list.total,
    };
  }

  /** `due` is computed against `query.now` (the reader's clock), as the domain's view does. */
  async timers(agentId: string, query: TimerListQuery): Promise<ListReply<TimerView>> {
    const status = parseListParam(query.status, 'status', TIMER_LIST_STATUSES, 'all');
    const list = await this.list<TimerView>(
      'timers',
      agentId,
      [['status', allAsUndefined(status)]],
      TIMER_ORDER,
      query.limit,
    );
    return { items: list.items.map((timer) => toTimerView(timer, query.now ?? null)), total: list.total };
  }

  messages(agentId: string, query: MessageListQuery): Promise<ListReply<MessageView>> {
    const status = query.status ?? 'queued';
    const order = status === 'queued' ? QUEUE_ORDER : RECENT_MESSAGE_ORDER;
    return this.list('messages', agentId, [['status', allAsUndefined(status)]], order, query.limit);
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

export const RECORD_QUERIES = Symbol('RECORD_QUERIES');

export const recordQueriesProvider: Provider = {
  provide: RECORD_QUERIES,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new RecordQueries(pool),
};
