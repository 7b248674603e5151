import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { ExpectedRevision } from '@app/event-store';
import { atLeast, type Check, type DetailTable } from '../report';
import type { Figure } from '../support/context';
import { describeBackends, sampleBackends } from '../support/pg-profile';
import { benchStore } from '../support/postgres';
import { benchStoreKind, currentStoreName } from '../support/store';
import { closedLoop, interleaved, median } from '../support/stats';
import { opaqueEvent } from '../support/workload';

/** The store's table without the xid column: what a hand-written event table would look like. */
export const RAW_EVENTS_TABLE = `
CREATE TABLE raw_events (
  global_position bigserial   PRIMARY KEY,
  stream_id       text        NOT NULL,
  stream_revision bigint      NOT NULL,
  event_id        uuid        NOT NULL UNIQUE,
  event_type      text        NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_revision)
)`;

/**
 * One statement: insert the next revision only if the stream's last revision is the expected
 * one (the unique key catches a concurrent writer that passed the same check).
 */
export const RAW_APPEND_SQL = `
INSERT INTO raw_events (stream_id, stream_revision, event_id, event_type, data, metadata)
SELECT $1, $2::bigint, $3, $4, $5, $6
 WHERE (SELECT coalesce(max(stream_revision), -1) FROM raw_events WHERE stream_id = $1) = $2::bigint - 1`;

export async function rawAppend(pool: Pool, stream: string, revision: number, n: number): Promise<void> {
  const event = opaqueEvent(n);
  const result = await pool.query(RAW_APPEND_SQL, [
    stream,
    revision,
    randomUUID(),
    event.type,
    JSON.stringify(event.data),
    JSON.stringify(event.metadata),
  ]);
  if (result.rowCount !== 1) throw new Error(`raw append refused on ${stream} at ${revision}`);
}

export const appendFigure: Figure = {
  id: 1,
  title: 'Single-event append: the event store vs raw Postgres INSERT',
  async run(ctx) {
    const url = await ctx.pg.isolated('append');
    const pool = await ctx.pg.migratedPool(url, 12);
    await pool.query(RAW_EVENTS_TABLE);
    const store = await benchStore(pool);
    const seconds = ctx.scale(2, 0.3);
    const repetitions = ctx.scale(3, 1);
    let run = 0;

    const storeRun = (writers: number) => async () => {
      run += 1;
      const revisions: ExpectedRevision[] = Array.from({ length: writers }, () => 'no_stream');
      const result = await closedLoop({
        concurrency: writers,
        durationMs: seconds * 1000,
        operation: async (w, i) => {
          const appended = await store.appendToStream(`store-${run}-${w}`, [opaqueEvent(i)], revisions[w]);
          revisions[w] = appended.next_revision;
        },
      });
      return result.rate;
    };
    const rawRun = (writers: number) => async () => {
      run += 1;
      const result = await closedLoop({
        concurrency: writers,
        durationMs: seconds * 1000,
        operation: (w, i) => rawAppend(pool, `raw-${run}-${w}`, i, i),
      });
      return result.rate;
    };

    // Warm-up: connections, plans, the function's first call.
    await closedLoop({
      concurrency: 8,
      durationMs: ctx.scale(500, 100),
      operation: async () => void (await store.appendToStream(`warm-${randomUUID()}`, [opaqueEvent(0)], 'no_stream')),
    });
    await closedLoop({
      concurrency: 8,
      durationMs: ctx.scale(500, 100),
      operation: () => rawAppend(pool, `warm-${randomUUID()}`, 0, 0),
    });

    const checks: Check[] = [];
    const notes: string[] = [];
    const rows: DetailTable['rows'] = [];
    for (const writers of [1, 8]) {
      const rates = await interleaved(repetitions, { store: storeRun(writers), raw: rawRun(writers) });
      const adapter = median(rates.store);
      const raw = median(rates.raw);
      ctx.log(`  ${writers} writer(s): store ${adapter.toFixed(0)}/s, raw ${raw.toFixed(0)}/s`);
      checks.push({
        name: `append, ${writers} writer${writers > 1 ? 's' : ''}: store vs raw INSERT`,
        measured: { value: adapter, unit: 'appends/s' },
        baseline: { value: raw, unit: 'appends/s', label: 'raw INSERT' },
        ...atLeast(adapter / raw, 0.5),
      });
      if (adapter / raw < 0.5) {
        const store = await sampleBackends(ctx.pg.monitor, storeRun(writers));
        const bare = await sampleBackends(ctx.pg.monitor, rawRun(writers));
        notes.push(
          `Missed at ${writers} writer(s): ${((100 * adapter) / raw).toFixed(0)}% of the raw INSERT. Store run: ${describeBackends(store)}. ` +
            `Raw run: ${describeBackends(bare)}.`,
        );
      }
      rows.push([
        writers,
        adapter,
        raw,
        adapter / raw,
        rates.store.map((r) => r.toFixed(0)).join(' / '),
        rates.raw.map((r) => r.toFixed(0)).join(' / '),
      ]);
    }
    await store.close();
    await pool.end();
    return {
      method:
        `Closed loop for ${seconds} s per run, ${repetitions} interleaved runs, medians. Each writer appends one ~450-byte event at a ` +
        `time to its own stream with the expected revision: through \`${currentStoreName()}.appendToStream\`` +
        (benchStoreKind() === 'postgres' ? ' (one call of `append_events_many`), ' : ', ') +
        'and as one raw `INSERT … SELECT … WHERE coalesce(max(stream_revision), -1) = expected` into a table of the same shape ' +
        "(same unique keys, no xid column). Same pool, same server, commits with the server's durability settings.",
      checks,
      tables: [
        {
          title: 'Appends per second (median; all runs)',
          columns: ['writers', 'store', 'raw INSERT', 'ratio', 'store runs', 'raw runs'],
          rows,
        },
      ],
      notes,
    };
  },
};
