import type { Pool } from 'pg';
import { type AgentState, toWorkItemView } from '@app/domain';
import type { EventStore, StoredEvent } from '@app/event-store';
import { agentStateDecider, agentIdOfStream, toDomainEvent } from '@app/core';
import { createProjectionRunner, READ_MODEL_PROJECTORS } from '@app/read-models';
import { atLeast } from '../report';
import type { Figure } from '../support/context';
import { benchStore } from '../support/postgres';
import { describeProfile, profileWhile } from '../support/profile';
import { closedLoop, interleaved, median, msSince, nowNs } from '../support/stats';
import { AgentLife } from '../support/workload';

const BATCH = 100;
const PAGE = 500;

/** Appends `perAgent` events for each of `agents` agents in 100-event batches, agents interleaved. */
export async function seedAgents(
  store: EventStore,
  prefix: string,
  agents: number,
  perAgent: number,
): Promise<AgentLife[]> {
  const lives = Array.from({ length: agents }, (_, i) => new AgentLife(`${prefix}-${i}`));
  const revisions = new Map<string, bigint | 'no_stream'>();
  for (let done = 0; done < perAgent; done += BATCH) {
    for (const life of lives) {
      const events = life.take(Math.min(BATCH, perAgent - done));
      const expected = revisions.get(life.agentId) ?? 'no_stream';
      const result = await store.appendToStream(`agent-${life.agentId}`, events, expected);
      revisions.set(life.agentId, result.next_revision);
    }
  }
  return lives;
}

/** The runner's fold and projectors without the database: the CPU part of a rebuild. */
function projectInMemory(events: StoredEvent[]): { rows: number; bytes: number } {
  const states = new Map<string, AgentState>();
  let rows = 0;
  let bytes = 0;
  for (const event of events) {
    const agentId = agentIdOfStream(event.stream);
    if (agentId === null) continue;
    const before = states.get(agentId) ?? agentStateDecider.initialState(agentId);
    const after = agentStateDecider.evolve(before, toDomainEvent(event));
    states.set(agentId, after);
    const projected = { ...event, agent_id: agentId };
    const writes = READ_MODEL_PROJECTORS.flatMap((p) => p.project({ event: projected, before, after }));
    rows += writes.length;
    bytes += JSON.stringify(writes.map((w) => w.row)).length; // the row writer's serialisation
  }
  return { rows, bytes };
}

async function readEverything(store: EventStore): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (let after: bigint | undefined; ;) {
    const page = await store.readAll({ after_position: after, max_count: PAGE });
    if (page.length === 0) return all;
    all.push(...page);
    after = page[page.length - 1].position;
  }
}

const RAW_ROWS_TABLE = `CREATE TABLE raw_rows (
  agent_id text NOT NULL, id text NOT NULL, view jsonb NOT NULL, last_position bigint NOT NULL, PRIMARY KEY (agent_id, id))`;

async function rawBatchRate(pool: Pool, view: string, seconds: number): Promise<number> {
  let next = 0;
  const run = `r${Date.now().toString(36)}`;
  const result = await closedLoop({
    concurrency: 1,
    durationMs: seconds * 1000,
    operation: async () => {
      const ids = Array.from({ length: BATCH }, () => `w-${next++}`);
      await pool.query(
        'INSERT INTO raw_rows (agent_id, id, view, last_position) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::bigint[])',
        [ids.map(() => run), ids, ids.map(() => view), ids.map((_, i) => next + i)],
      );
      return BATCH;
    },
  });
  return result.rate;
}

export const rebuildFigure: Figure = {
  id: 5,
  title: 'Projection rebuild from position 0 vs raw 100-row batch INSERT',
  async run(ctx) {
    const url = await ctx.pg.isolated('rebuild');
    const pool = await ctx.pg.migratedPool(url, 10);
    await pool.query(RAW_ROWS_TABLE);
    const store = await benchStore(pool);
    const agents = ctx.scale(80, 10);
    const perAgent = ctx.scale(500, 100);
    const repetitions = ctx.scale(3, 1);
    const seedStart = nowNs();
    const lives = await seedAgents(store, 'rebuild', agents, perAgent);
    ctx.log(`  seeded ${agents * perAgent} events in ${(msSince(seedStart) / 1000).toFixed(1)} s`);
    const life = lives[0];
    const view = JSON.stringify(toWorkItemView(life.state, life.state.work_items.get(life.workItemId(1))!));

    // NOTE: rebuild() on a schema where the runner never started fails at its second page: reset()
    // UPDATEs a checkpoint row that does not exist yet, then the next page finds the stored checkpoint
    // (-1) behind the runner's own. Product fix: reset() upserts the row. Until then, create it here.
    await pool.query(
      `INSERT INTO projection_checkpoints (projection, position) VALUES ('read_models', -1) ON CONFLICT DO NOTHING`,
    );
    const runner = createProjectionRunner(pool, store);
    const rebuild = async () => {
      const start = nowNs();
      const applied = await runner.rebuild();
      return applied / (msSince(start) / 1000);
    };
    await rebuild(); // warm-up (and checks that it works)
    const rates = await interleaved(repetitions, { rebuild, raw: () => rawBatchRate(pool, view, ctx.scale(3, 0.3)) });
    const rebuildRate = median(rates.rebuild);
    const raw = median(rates.raw);

    // Where the time goes: reading the log alone, and the fold + projectors alone (no database).
    const readStart = nowNs();
    const events = await readEverything(store);
    const readRate = events.length / (msSince(readStart) / 1000);
    const cpuStart = nowNs();
    const { rows } = projectInMemory(events);
    const cpuRate = events.length / (msSince(cpuStart) / 1000);
    const { rows: counted } = await pool.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM work_items) + (SELECT count(*) FROM agents) + (SELECT count(*) FROM scheduler_state) AS n`,
    );
    ctx.log(
      `  rebuild ${rebuildRate.toFixed(0)} events/s, raw ${raw.toFixed(0)} rows/s, read ${readRate.toFixed(0)}/s, cpu ${cpuRate.toFixed(0)}/s`,
    );

    const check = atLeast(rebuildRate / raw, 0.25);
    const notes = [
      'Found while building this figure: `ProjectionRunner.rebuild()` on a database where the runner never started fails at its ' +
        'second page ("checkpoint read_models is at -1, this runner at 500"): `reset()` UPDATEs a `projection_checkpoints` row that ' +
        'does not exist yet, so `lockCheckpoint` reads -1 after the first page advanced the runner. Fix (libs/read-models, one ' +
        'statement): `reset()` upserts the row (`INSERT … VALUES ($1, -1) ON CONFLICT (projection) DO UPDATE SET position = -1`). ' +
        'The benchmark creates the row itself before rebuilding.',
      `Per event the runner folds the agent state and runs ${READ_MODEL_PROJECTORS.length} projectors; this workload yields ` +
        `${(rows / events.length).toFixed(1)} row writes per event (work item, agent summary, scheduler state), merged per batch of ${PAGE} ` +
        `into one upsert per table: ${counted[0].n} rows at the end.`,
      `Where a rebuild's time goes (same events): reading the log alone ${Math.round(readRate).toLocaleString('en-US')} events/s ` +
        `(readAll, pages of ${PAGE}); fold + projectors + JSON alone, no database, ${Math.round(cpuRate).toLocaleString('en-US')} events/s.`,
    ];
    if (!check.met) {
      const { summary } = await profileWhile(() => runner.rebuild());
      notes.push(`Missed. ${describeProfile(summary, 'the bench process during a rebuild')}.`);
    }
    await runner.stop();
    await store.close();
    await pool.end();
    return {
      method:
        `${agents} agents × ${perAgent} events (registered, 8 work items, a pick, then todo-list updates), appended in ` +
        `${BATCH}-event batches. \`ProjectionRunner.rebuild()\` of every read model from position 0 (truncate, then pages of ${PAGE}, ` +
        'one transaction per page with the checkpoint), timed from the call to its return; baseline: one writer inserting 100 rows ' +
        'per statement (`INSERT … SELECT FROM unnest(...)`, a work item view as jsonb) into a keyed table. ' +
        `${repetitions} interleaved runs, medians.`,
      checks: [
        {
          name: 'projection rebuild vs raw 100-row batch INSERT',
          measured: { value: rebuildRate, unit: 'events/s' },
          baseline: { value: raw, unit: 'rows/s', label: 'raw 100-row INSERT' },
          ...check,
        },
      ],
      tables: [
        {
          title: 'Rates',
          columns: ['what', 'per second', 'runs'],
          rows: [
            ['rebuild (events)', rebuildRate, rates.rebuild.map((r) => r.toFixed(0)).join(' / ')],
            ['raw 100-row INSERT (rows)', raw, rates.raw.map((r) => r.toFixed(0)).join(' / ')],
            ['read the log only (events)', readRate, '1'],
            ['fold + projectors only (events)', cpuRate, '1'],
          ],
        },
      ],
      notes,
    };
  },
};
