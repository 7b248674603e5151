import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import type {
  AgentSummaryView,
  CandidateClass,
  DecisionRecord,
  TodoItem,
  WaitingIntentView,
  WorkItemView,
} from '@app/domain';
import { POSTGRES_POOL } from '../postgres/postgres-pool';
import type { SchedulerStateView } from '../scheduler/scheduler-state.view';

/**
 * Reads of the operator console that span the existing read models (agents, scheduler_state,
 * work_items, waiting_intents): the agents a caller may see, the attention list across agents,
 * and an agent's board of candidate classes. Postgres only, never the event store.
 */

/** Which agents a caller may see: every agent (admin) or the ones its token names. */
export type AgentScope = { readonly all: true } | { readonly all: false; readonly agent_ids: readonly string[] };

/** The order the scheduler takes candidates in (docs/domain-contract.md §5), completed last. */
export const BOARD_CLASSES: readonly CandidateClass[] = [
  'current_runnable',
  'triggered_blocked',
  'queued_runnable',
  'waiting_for_operator',
  'blocked',
  'completed_recent',
];

export type AgentOverview = {
  agent_id: string;
  posture: AgentSummaryView['posture'];
  registered_at: string | null;
  /** Agent stream revision the scheduler state is of (decimal string), null before the first projection. */
  revision: string | null;
  projected_at: string | null;
  current_work_item: {
    id: string;
    objective: string;
    readiness: string;
    current_todo: TodoItem | null;
    blocked_by: string | null;
  } | null;
  /** Items per candidate class (the scheduler's view), zero when not projected yet. */
  candidate_counts: Record<CandidateClass, number>;
  work_item_counts: AgentSummaryView['work_item_counts'];
  queued_messages: number;
  active_intents: number;
  triggered_intents: number;
  scheduled_timers: number;
  active_tasks: number;
  open_turn: { turn_id: string; lease_expires_at: string } | null;
  last_decision: (DecisionRecord & { recorded_at: string }) | null;
};

export type AttentionItem = {
  agent_id: string;
  /** Since when the item has waited for the operator: its oldest active operator wait, or its last change for `needs_input`. */
  waiting_since: string;
  /** `needs_input` (plan status), `operator_wait` (an active operator_input intent), or both. */
  reasons: Array<'needs_input' | 'operator_wait'>;
  operator_waits: Pick<WaitingIntentView, 'id' | 'reason' | 'created_at' | 'trigger_count' | 'last_triggered_at'>[];
  work_item: WorkItemView;
};

export type BoardColumn = { candidate_class: CandidateClass; total: number; items: WorkItemView[] };
export type AgentBoard = { agent_id: string; revision: string; projected_at: string; columns: BoardColumn[] };

export const CONSOLE_LIST_DEFAULT = 100;
export const CONSOLE_LIST_MAX = 500;

export function clampConsoleLimit(
  limit: number | undefined,
  fallback = CONSOLE_LIST_DEFAULT,
  max = CONSOLE_LIST_MAX,
): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(limit)));
}

const scopeParams = (scope: AgentScope): [boolean, string[]] => [scope.all, scope.all ? [] : [...scope.agent_ids]];
const zeroCounts = (): Record<CandidateClass, number> =>
  Object.fromEntries(BOARD_CLASSES.map((c) => [c, 0])) as Record<CandidateClass, number>;

export class ConsoleQueries {
  constructor(private readonly pool: Pool) {}

  /** Agents in scope by id, each with its scheduler state's headline and its focus. */
  async agents(scope: AgentScope, limit?: number): Promise<{ items: AgentOverview[]; total: number }> {
    const { rows } = await this.pool.query(
      `SELECT a.summary, s.view AS state, w.view AS current, count(*) OVER () AS total
         FROM agents a
         LEFT JOIN scheduler_state s ON s.agent_id = a.agent_id
         LEFT JOIN work_items w ON w.agent_id = a.agent_id AND w.id = a.current_work_item_id
        WHERE $1::boolean OR a.agent_id = ANY($2::text[])
        ORDER BY a.agent_id COLLATE "C"
        LIMIT $3`,
      [...scopeParams(scope), clampConsoleLimit(limit)],
    );
    return {
      items: rows.map((row) => toOverview(row.summary, row.state, row.current)),
      total: rows.length ? Number(rows[0].total) : 0,
    };
  }

  /** Open items waiting for an operator across the agents in scope, oldest wait first. */
  async attention(scope: AgentScope, limit?: number): Promise<{ items: AttentionItem[]; total: number }> {
    const { rows } = await this.pool.query(
      `SELECT w.agent_id, w.view,
              COALESCE(LEAST(min(i.created_at), CASE WHEN w.plan_status = 'needs_input' THEN w.updated_at END), w.updated_at) AS waiting_since,
              count(*) OVER () AS total
         FROM work_items w
         LEFT JOIN waiting_intents i
           ON i.agent_id = w.agent_id AND i.work_item_id = w.id AND i.status = 'active' AND i.view->>'wake' = 'operator_input'
        WHERE w.state = 'open' AND w.readiness = 'waiting_for_operator' AND ($1::boolean OR w.agent_id = ANY($2::text[]))
        GROUP BY w.agent_id, w.id
        ORDER BY waiting_since ASC, w.agent_id COLLATE "C", w.id COLLATE "C"
        LIMIT $3`,
      [...scopeParams(scope), clampConsoleLimit(limit)],
    );
    return {
      items: rows.map((row) => toAttentionItem(row.agent_id, row.view, row.waiting_since)),
      total: rows.length ? Number(rows[0].total) : 0,
    };
  }

  /** The agent's candidates per class in the scheduler's ranking (its stored projection), the first `perClass` of each as item views. */
  async board(agentId: string, perClass: number): Promise<AgentBoard | null> {
    const { rows } = await this.pool.query('SELECT view FROM scheduler_state WHERE agent_id = $1', [agentId]);
    if (!rows.length) return null;
    const state = rows[0].view as SchedulerStateView;
    const shown = BOARD_CLASSES.map((c) => ({
      candidate_class: c,
      ids: (state.candidates[c] ?? []).slice(0, perClass),
      total: (state.candidates[c] ?? []).length,
    }));
    const wanted = shown.flatMap((column) => column.ids);
    const views = new Map<string, WorkItemView>();
    if (wanted.length) {
      const items = await this.pool.query(
        'SELECT id, view FROM work_items WHERE agent_id = $1 AND id = ANY($2::text[])',
        [agentId, wanted],
      );
      for (const row of items.rows) views.set(row.id, row.view as WorkItemView);
    }
    const columns = shown.map(({ candidate_class, ids, total }) => ({
      candidate_class,
      total,
      items: ids.map((id) => views.get(id)).filter((view): view is WorkItemView => view !== undefined),
    }));
    return { agent_id: agentId, revision: state.revision, projected_at: state.projected_at, columns };
  }
}

function toOverview(
  summary: AgentSummaryView,
  state: SchedulerStateView | null,
  current: WorkItemView | null,
): AgentOverview {
  const counts = state?.counts;
  const candidate_counts = zeroCounts();
  for (const c of BOARD_CLASSES) candidate_counts[c] = counts?.[c] ?? 0;
  return {
    agent_id: summary.agent_id,
    posture: summary.posture,
    registered_at: summary.registered_at,
    revision: state?.revision ?? null,
    projected_at: state?.projected_at ?? null,
    current_work_item: current && {
      id: current.id,
      objective: current.objective,
      readiness: current.readiness,
      current_todo: current.current_todo,
      blocked_by: current.blocked_by,
    },
    candidate_counts,
    work_item_counts: summary.work_item_counts,
    queued_messages: state?.queue.count ?? 0,
    active_intents: counts?.active_intents ?? 0,
    triggered_intents: counts?.triggered_intents ?? 0,
    scheduled_timers: counts?.scheduled_timers ?? 0,
    active_tasks: counts?.active_tasks ?? 0,
    open_turn: state?.open_turn
      ? { turn_id: state.open_turn.turn_id, lease_expires_at: state.open_turn.lease_expires_at }
      : null,
    last_decision: state?.last_decision ?? null,
  };
}

function toAttentionItem(agentId: string, view: WorkItemView, waitingSince: Date | string): AttentionItem {
  const operatorWaits = view.waiting_intents.filter(
    (intent) => intent.status === 'active' && intent.wake === 'operator_input',
  );
  const reasons: AttentionItem['reasons'] = [];
  if (view.plan_status === 'needs_input') reasons.push('needs_input');
  if (operatorWaits.length) reasons.push('operator_wait');
  return {
    agent_id: agentId,
    waiting_since: new Date(waitingSince).toISOString(),
    reasons,
    operator_waits: operatorWaits.map(({ id, reason, created_at, trigger_count, last_triggered_at }) => ({
      id,
      reason,
      created_at,
      trigger_count,
      last_triggered_at,
    })),
    work_item: view,
  };
}

export const CONSOLE_QUERIES = Symbol('CONSOLE_QUERIES');

export const consoleQueriesProvider: Provider = {
  provide: CONSOLE_QUERIES,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new ConsoleQueries(pool),
};
