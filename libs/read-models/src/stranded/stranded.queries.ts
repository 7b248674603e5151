import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  DELAY_OF_KIND,
  delayMs,
  type StrandedEntry,
  type StrandedKind,
  STRANDED_KINDS,
  type StrandedThresholds,
  type StrandingWatch,
  toStrandedEntry,
} from '@app/domain';
import type { AgentScope } from '../console/console.queries';
import { POSTGRES_POOL } from '../postgres/postgres-pool';

export const STRANDED_LIST_DEFAULT = 100;
export const STRANDED_LIST_MAX = 500;

export type StrandedListQuery = {
  scope: AgentScope;
  /** The reader's clock (RFC 3339): what is stranded is compared with it, never with the database's. */
  now: string;
  thresholds: StrandedThresholds;
  kind?: StrandedKind;
  limit?: number;
};

const delaysByKind = (thresholds: StrandedThresholds): string =>
  JSON.stringify(Object.fromEntries(STRANDED_KINDS.map((k) => [k, delayMs(DELAY_OF_KIND[k], thresholds)])));

/**
 * The stranded watches at `$1` (now) with the delays `$2` (ms by kind), across the agents in scope
 * (`$3` all, `$4` ids) and of one kind (`$5`, null: all). The index on earliest_since finds the
 * agents with a watch begun; a delegation watch is dropped while its counterpart's row holds it
 * (the counterpart has the record, or for `end`, has no open one).
 */
const STRANDED_SQL = `
  WITH due AS (
    SELECT s.agent_id, w.value AS watch,
           (w.value->>'since')::timestamptz
             + make_interval(secs => (($2::jsonb)->>(w.value->>'kind'))::float8 / 1000) AS stranded_at
      FROM stranded_work s
      CROSS JOIN LATERAL jsonb_array_elements(s.watches) w
     WHERE s.earliest_since <= $1::timestamptz
       AND ($3::boolean OR s.agent_id = ANY($4::text[]))
       AND ($5::text IS NULL OR w.value->>'kind' = $5::text)
  )
  SELECT d.agent_id, d.watch, d.stranded_at
    FROM due d
    LEFT JOIN stranded_work c
      ON jsonb_typeof(d.watch->'counterpart') = 'object' AND c.agent_id = d.watch->'counterpart'->>'agent_id'
   WHERE d.stranded_at <= $1::timestamptz
     AND (jsonb_typeof(d.watch->'counterpart') IS DISTINCT FROM 'object'
          OR CASE d.watch->'counterpart'->>'requires'
               WHEN 'record' THEN NOT COALESCE(c.delegations ? (d.watch->'counterpart'->>'delegation_id'), false)
               ELSE COALESCE(c.delegations->>(d.watch->'counterpart'->>'delegation_id'), '') = 'open'
             END)`;

export class StrandedQueries {
  constructor(private readonly pool: Pool) {}

  /** Stranded work in scope at `now`, oldest stranded first (then agent, kind); `total` counts every match. */
  async list(query: StrandedListQuery): Promise<{ items: StrandedEntry[]; total: number }> {
    const limit = Math.min(STRANDED_LIST_MAX, Math.max(1, Math.floor(query.limit ?? STRANDED_LIST_DEFAULT)));
    const { rows } = await this.pool.query(
      `SELECT agent_id, watch, count(*) OVER () AS total FROM (${STRANDED_SQL}) x
        ORDER BY stranded_at, agent_id COLLATE "C", watch->>'kind', watch->'subject'::text
        LIMIT $6`,
      [
        query.now,
        delaysByKind(query.thresholds),
        query.scope.all,
        query.scope.all ? [] : [...query.scope.agent_ids],
        query.kind ?? null,
        limit,
      ],
    );
    return {
      items: rows.map((row) => toStrandedEntry(row.agent_id, row.watch as StrandingWatch, query.thresholds, query.now)),
      total: rows.length ? Number(rows[0].total) : 0,
    };
  }

  /** How many watches are stranded at `now`, by kind, across every agent (the metric). */
  async countByKind(now: string, thresholds: StrandedThresholds): Promise<Record<StrandedKind, number>> {
    const { rows } = await this.pool.query<{ kind: StrandedKind; n: string }>(
      `SELECT watch->>'kind' AS kind, count(*) AS n FROM (${STRANDED_SQL}) x GROUP BY 1`,
      [now, delaysByKind(thresholds), true, [], null],
    );
    const counts = Object.fromEntries(STRANDED_KINDS.map((k) => [k, 0])) as Record<StrandedKind, number>;
    for (const row of rows) if (row.kind in counts) counts[row.kind] = Number(row.n);
    return counts;
  }
}

export const STRANDED_QUERIES = Symbol('STRANDED_QUERIES');

export const strandedQueriesProvider: Provider = {
  provide: STRANDED_QUERIES,
  inject: [POSTGRES_POOL],
  useFactory: (pool: Pool) => new StrandedQueries(pool),
};
