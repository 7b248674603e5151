import type { ExpectedRevision } from '@app/event-store';
import { loadavg } from 'node:os';
import { atLeast } from '../report';
import type { Figure } from '../support/context';
import { benchStore } from '../support/postgres';
import { closedLoop, interleaved, median } from '../support/stats';
import { opaqueEvent } from '../support/workload';

const BATCH = 100;

export const batchFigure: Figure = {
  id: 2,
  title: '100-event batch append vs 100 single appends',
  async run(ctx) {
    const url = await ctx.pg.isolated('batch');
    const pool = await ctx.pg.migratedPool(url, 4);
    const store = await benchStore(pool);
    const seconds = ctx.scale(2, 0.3);
    const repetitions = ctx.scale(3, 1);
    let run = 0;

    const appendRun = (size: number) => async () => {
      run += 1;
      const stream = `batch-${size}-${run}`;
      let expected: ExpectedRevision = 'no_stream';
      const result = await closedLoop({
        concurrency: 1,
        durationMs: seconds * 1000,
        operation: async (_w, i) => {
          const events = Array.from({ length: size }, (_, k) => opaqueEvent(i * size + k));
          expected = (await store.appendToStream(stream, events, expected)).next_revision;
          return size;
        },
      });
      return result.rate;
    };
    await appendRun(BATCH)();
    await appendRun(1)();
    const rates = await interleaved(repetitions, { batch: appendRun(BATCH), single: appendRun(1) });
    const batch = median(rates.batch);
    const single = median(rates.single);
    ctx.log(`  batch ${batch.toFixed(0)} events/s, single ${single.toFixed(0)} events/s`);
    await store.close();
    await pool.end();
    return {
      method:
        `One writer, closed loop for ${seconds} s per run, ${repetitions} interleaved runs, medians: appends of ${BATCH} events at once ` +
        '(one `append_events_many` call) vs appends of one event, to one stream with the expected revision; events per second.',
      checks: [
        {
          name: `${BATCH}-event batch vs single appends`,
          measured: { value: batch, unit: 'events/s' },
          baseline: { value: single, unit: 'events/s', label: 'single appends' },
          ...atLeast(batch / single, 10),
        },
      ],
      tables: [
        {
          title: 'Events per second (all runs)',
          columns: ['append', 'median', 'runs'],
          rows: [
            [`${BATCH} events per call`, batch, rates.batch.map((r) => r.toFixed(0)).join(' / ')],
            ['1 event per call', single, rates.single.map((r) => r.toFixed(0)).join(' / ')],
          ],
        },
      ],
      notes:
        batch / single >= 10
          ? []
          : [
              `Missed: a batch of ${BATCH} ran ${(batch / single).toFixed(1)}x the single appends' event rate. A batch is one ` +
                '`append_events_many` call (one round trip, one commit) for 100 events, so the ratio is bound by the per-event cost ' +
                "inside that call; a miss in a run whose single appends were unusually fast (they vary most: see the runs) is the machine's " +
                `noise (load average ${loadavg()[0].toFixed(1)} at the end of this figure). Re-run the figure alone (\`--only 2\`) before looking further.`,
            ],
    };
  },
};
