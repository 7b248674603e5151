import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { AgentRepository } from '@app/application';
import { agentStateDecider } from '@app/core';
import {
  createProjectionRunner,
  PostgresSnapshotStore,
  ProjectionRunner,
  READ_MODEL_PROJECTORS,
  READ_MODELS_PROJECTION,
} from '@app/read-models';
import { isolatedDatabaseUrl, testPool, testStore } from '../support/postgres';
import { compareWithRebuild, snapshotReadModels } from '../reliability/support/read-models';

const plan = (id: string) => ({
  path: `/h/a/work-items/${id}/plan.md`,
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: '',
  preview_complete: true,
});

/**
 * Issue 14 item 5: a rebuild against a running service served half-built data (other agents
 * answered 404) until it finished. It now replays into shadow tables and swaps them in at once.
 */
describe('a rebuild while the read models serve', () => {
  let url: string;
  let pool: Pool;
  let store: EventStore;
  let repository: AgentRepository<AgentState, AgentEvent>;
  let seq = 0;
  let newest = -1n;

  const run = async (agentId: string, build: (meta: { now: string; command_id: string }) => AgentCommand) => {
    seq += 1;
    const command = build({ now: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), command_id: `c-${seq}` });
    const result = await repository.transact({ agentId, commandId: command.meta.command_id, actor: 'test' }, (s) =>
      decide(command, s),
    );
    if (result.position !== null && result.position > newest) newest = result.position;
  };
  const seedAgent = async (agentId: string) => {
    await run(agentId, (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
    for (const id of ['w-1', 'w-2', 'w-3']) {
      await run(agentId, (meta) => ({
        type: 'CreateWorkItem',
        data: { work_item_id: id, objective: `do ${id}`, plan_artifact: plan(id) },
        meta,
      }));
    }
    await run(agentId, (meta) => ({ type: 'PickWorkItem', data: { work_item_id: 'w-1' }, meta }));
  };
  /** A slow rebuilder (small batches), as the CLI's runner in another process would be. */
  const rebuilder = () =>
    new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
      name: READ_MODELS_PROJECTION,
      batchSize: 4,
      snapshots: new PostgresSnapshotStore(pool),
    });
  const counts = async () => {
    const { rows } = await pool.query<{ agents: string; items: string; one: string }>(
      `SELECT (SELECT count(*) FROM agents)::text AS agents, (SELECT count(*) FROM work_items)::text AS items,
              (SELECT count(*) FROM work_items WHERE agent_id = 'agent-0' AND id = 'w-1' AND is_current)::text AS one`,
    );
    return { agents: Number(rows[0].agents), items: Number(rows[0].items), one: Number(rows[0].one) };
  };
  /** Reads continuously until `done` settles; returns every read that saw fewer rows than `floor`. */
  const watch = async (done: Promise<unknown>, floor: { agents: number; items: number }) => {
    let finished = false;
    void done.finally(() => (finished = true)).catch(() => undefined);
    const bad: Array<{ agents: number; items: number; one: number }> = [];
    let reads = 0;
    while (!finished) {
      const seen = await counts();
      reads += 1;
      if (seen.agents < floor.agents || seen.items < floor.items || seen.one !== 1) bad.push(seen);
    }
    return { bad, reads };
  };

  beforeAll(async () => {
    url = await isolatedDatabaseUrl('shadow_rebuild');
    pool = await testPool(10, url);
    store = await testStore(pool);
    repository = new AgentRepository(store, new PostgresSnapshotStore(pool), agentStateDecider);
    for (let i = 0; i < 24; i++) await seedAgent(`agent-${i}`);
    const live = createProjectionRunner(pool, store);
    await live.start();
    await live.waitFor(newest);
    await live.stop();
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  it('never shows a reader an empty or partial model, and ends equal to what it replaced', async () => {
    const before = await snapshotReadModels(pool);
    const floor = await counts();
    expect(floor).toEqual({ agents: 24, items: 72, one: 1 });
    const rebuild = rebuilder().rebuild();
    const { bad, reads } = await watch(rebuild, floor);
    expect(await rebuild).toBe(24 * 5);
    expect(reads).toBeGreaterThan(5);
    expect(bad).toEqual([]);
    expect(await snapshotReadModels(pool)).toEqual(before);
    // Keys and indexes keep their names through the swap (a later migration may name them).
    const { rows } = await pool.query(
      "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'work_items' ORDER BY 1",
    );
    expect(rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining(['work_items_agent_readiness', 'work_items_agent_updated']),
    );
    const { rows: schemas } = await pool.query(
      "SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = current_schema() || '_rebuild'",
    );
    expect(schemas[0].n).toBe(0);
  });

  it('runs beside a live runner that keeps applying new events, which then carries on from the swap', async () => {
    const live = createProjectionRunner(pool, store);
    await live.start();
    try {
      const floor = await counts();
      const rebuild = rebuilder().rebuild();
      const writes = (async () => {
        for (let i = 24; i < 30; i++) await seedAgent(`agent-${i}`);
      })();
      const { bad } = await watch(Promise.all([rebuild, writes]), floor);
      expect(bad).toEqual([]);
      await live.waitFor(newest);
      expect(live.stalled).toBeNull();
      expect(await counts()).toEqual({ agents: 30, items: 90, one: 1 });
    } finally {
      await live.stop();
    }
    const comparison = await compareWithRebuild(url, store);
    expect(comparison.differences).toEqual([]);
  });

  it('refuses a second rebuild of the same schema while one runs', async () => {
    const first = rebuilder().rebuild();
    const shadowExists = async () =>
      (await pool.query("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = current_schema() || '_rebuild'"))
        .rows[0].n === 1;
    while (!(await shadowExists())) await new Promise((resolve) => setTimeout(resolve, 2));
    await expect(rebuilder().rebuild()).rejects.toMatchObject({ code: 'rebuild_running' });
    await first;
  });
});
