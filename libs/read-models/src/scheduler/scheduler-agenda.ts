import type { Pool } from 'pg';
import { type AgentState, schedulerAgendaOf } from '@app/domain';
import type { AgendaPage, AgendaQuery } from '@app/core';
import { shardKeyOf } from '../ownership/shard-hash';
import type { Projector, ProjectionInput, RowWrite } from '../projection/projector';

/**
 * The scheduler's agenda (migration 0018, ADR 0038): one row per agent, rewritten at each of its
 * events, from the domain's schedulerAgendaOf as of the event's recorded_at.
 */
export const schedulerAgendaProjector: Projector<AgentState> = {
  name: 'scheduler_agenda',
  tables: [
    {
      name: 'scheduler_agenda',
      key: ['agent_id'],
      columns: ['agent_id', 'shard_key', 'next_due_at', 'undecided', 'revision'],
    },
  ],
  project({ event, after }: ProjectionInput<AgentState>): RowWrite[] {
    const entry = after.agent_id === null ? null : schedulerAgendaOf(after, event.recorded_at);
    if (entry === null || after.agent_id === null) return [];
    return [
      {
        table: 'scheduler_agenda',
        row: {
          agent_id: after.agent_id,
          shard_key: shardKeyOf(after.agent_id),
          next_due_at: entry.next_due_at,
          undecided: entry.undecided,
          revision: event.revision.toString(),
        },
      },
    ];
  },
};

const PARTIAL_MARK = 'scheduler_agenda_partial';

/** Removes migration 0018's mark once every agent has an agenda row (a rebuild, or each one's next event). */
async function forgetPartialMark(pool: Pool): Promise<void> {
  await pool.query(
    `DELETE FROM runtime_meta WHERE key = '${PARTIAL_MARK}'
       AND NOT EXISTS (SELECT 1 FROM agents ag WHERE NOT EXISTS (SELECT 1 FROM scheduler_agenda s WHERE s.agent_id = ag.agent_id))`,
  );
}

/** A row of the page queries. */
interface Row {
  agent_id: string;
  next_due_at: Date | null;
  undecided: boolean;
}

/**
 * The pages a starting (or rebalanced) scheduler reads: the agents of its shards that are
 * undecided, parked by the projector (their rows may be stale), or due by `until`; and, to move
 * its horizon, those due in (after, until]. Keyset paging on the indexes of migration 0018.
 */
export async function readAgendaPage(pool: Pool, query: AgendaQuery, projection = 'read_models'): Promise<AgendaPage> {
  const limit = query.limit ?? 1_000;
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const until = p(new Date(query.until));
  /** The held shards (all of them without `shards`); a row-less agent (parked, or after an upgrade) passes: the worker drops another replica's. */
  const ours = (key: string) =>
    query.shards && query.shards.held.length < query.shards.count
      ? `AND (${key} IS NULL OR (${key} % ${p(query.shards.count)}) = ANY(${p(query.shards.held)}::int[]))`
      : '';
  let sql: string;
  if (query.kind === 'start') {
    // Undecided, due by `until`, parked (their rows may be stale), or (after an upgrade) without a row yet.
    if (query.cursor === null || query.cursor === undefined) await forgetPartialMark(pool);
    const after = query.cursor ? `AND c.agent_id COLLATE "C" > ${p(query.cursor)}` : '';
    sql = `WITH candidates AS (
             SELECT agent_id FROM scheduler_agenda WHERE undecided
             UNION SELECT agent_id FROM scheduler_agenda WHERE next_due_at <= ${until}
             UNION SELECT agent_id FROM projection_parked_agents WHERE projection = ${p(projection)}
             UNION SELECT ag.agent_id FROM agents ag
                   WHERE EXISTS (SELECT 1 FROM runtime_meta WHERE key = '${PARTIAL_MARK}')
                     AND NOT EXISTS (SELECT 1 FROM scheduler_agenda s WHERE s.agent_id = ag.agent_id))
           SELECT c.agent_id, a.next_due_at,
                  a.undecided IS NOT FALSE OR EXISTS (SELECT 1 FROM projection_parked_agents pp
                    WHERE pp.projection = ${p(projection)} AND pp.agent_id = c.agent_id) AS undecided
           FROM candidates c LEFT JOIN scheduler_agenda a USING (agent_id)
           WHERE true ${ours('a.shard_key')} ${after}
           ORDER BY c.agent_id COLLATE "C" LIMIT ${p(limit)}`;
  } else {
    // Due in (from, until], by deadline then id (the next_due_at index).
    const cursor = query.cursor ? (JSON.parse(query.cursor) as [string, string]) : null;
    const after = cursor ? `AND (next_due_at, agent_id) > (${p(new Date(cursor[0]))}, ${p(cursor[1])})` : '';
    sql = `SELECT agent_id, next_due_at, undecided FROM scheduler_agenda
           WHERE next_due_at > ${p(new Date(query.from))} AND next_due_at <= ${until} ${ours('shard_key')} ${after}
           ORDER BY next_due_at, agent_id LIMIT ${p(limit)}`;
  }
  const { rows } = await pool.query<Row>(sql, params);
  const last = rows[rows.length - 1];
  const next =
    rows.length < limit || !last
      ? null
      : query.kind === 'start'
        ? last.agent_id
        : JSON.stringify([last.next_due_at!.toISOString(), last.agent_id]);
  return {
    entries: rows.map((row) => ({
      agent_id: row.agent_id,
      next_due_at: row.next_due_at?.toISOString() ?? null,
      undecided: row.undecided,
    })),
    next,
  };
}
