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
  WorkItemQueries,
} from '@app/read-models';
import { isolatedDatabaseUrl, testPool, testStore } from '../support/postgres';
import { eventually } from '@app/event-store/testing';

const plan = (id: string) => ({
  path: `/h/a/work-items/${id}/plan.md`,
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: '',
  preview_complete: true,
});

describe('the read-model projection runner', () => {
  let pool: Pool;
  let store: EventStore;
  let repository: AgentRepository<AgentState, AgentEvent>;
  let seq = 0;
  const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();
  const run = async (agentId: string, build: (meta: { now: string; command_id: string }) => AgentCommand) => {
    seq += 1;
    const command = build({ now: at(), command_id: `c-${seq}` });
    const result = await repository.transact({ agentId, commandId: command.meta.command_id, actor: 'test' }, (s) =>
      decide(command, s),
    );
    if (result.position !== null && result.position > newest) newest = result.position;
    return result;
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
    await run(agentId, (meta) => ({
      type: 'UpdateWorkItem',
      data: { work_item_id: 'w-2', blocked_by: 'waiting for review' },
      meta,
    }));
    await run(agentId, (meta) => ({
      type: 'PickWorkItem',
      data: { work_item_id: 'w-3', reason: 'more urgent' },
      meta,
    }));
    return run(agentId, (meta) => ({ type: 'CompleteWorkItem', data: { work_item_id: 'w-3' }, meta }));
  };
  const rows = async () =>
    (
      await pool.query(
        'SELECT agent_id, id, readiness, candidate_class, is_current, view FROM work_items ORDER BY agent_id, id',
      )
    ).rows;
  const agents = async () => (await pool.query('SELECT agent_id, summary FROM agents ORDER BY agent_id')).rows;
  // The newest position written by this spec (readAll's head lags open transactions elsewhere).
  let newest = -1n;
  const head = async () => newest;

  beforeAll(async () => {
    pool = await testPool(10, await isolatedDatabaseUrl('projection'));
    store = await testStore(pool);
    repository = new AgentRepository(store, new PostgresSnapshotStore(pool), agentStateDecider);
    await seedAgent('agent-a');
    await seedAgent('agent-b');
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  it('projects the work item views the domain derives, with their derived columns', async () => {
    const runner = createProjectionRunner(pool, store);
    await runner.start();
    await runner.waitFor(await head());
    await runner.stop();
    const queries = new WorkItemQueries(pool);
    expect(await queries.get('agent-a', 'w-1')).toMatchObject({
      readiness: 'runnable',
      is_current: false,
      candidate_class: 'queued_runnable',
    });
    expect(await queries.get('agent-a', 'w-2')).toMatchObject({
      readiness: 'blocked',
      blocked_by: 'waiting for review',
    });
    expect(await queries.get('agent-a', 'w-3')).toMatchObject({
      state: 'completed',
      candidate_class: 'completed_recent',
    });
    expect(await queries.list('agent-a', 'queued', 20)).toMatchObject({ total: 1, items: [{ id: 'w-1' }] });
    expect(await queries.agent('agent-b')).toMatchObject({
      agent_id: 'agent-b',
      current_work_item_id: null,
      revision: '8',
    });
  });

  it('changes nothing when a batch is delivered again', async () => {
    const before = await rows();
    await pool.query("UPDATE projection_checkpoints SET position = -1 WHERE projection = 'read_models'");
    const runner = createProjectionRunner(pool, store);
    await runner.start();
    await runner.waitFor(await head());
    await runner.stop();
    expect(await rows()).toEqual(before);
  });

  it('rebuilds from position 0 to exactly the live read model', async () => {
    const live = { rows: await rows(), agents: await agents() };
    const runner = createProjectionRunner(pool, store);
    const applied = await runner.rebuild();
    expect(applied).toBe(18);
    expect({ rows: await rows(), agents: await agents() }).toEqual(live);
  });

  it('rebuilds where no projector ever ran (no checkpoint row yet), batch after batch', async () => {
    const live = { rows: await rows(), agents: await agents() };
    await pool.query("DELETE FROM projection_checkpoints WHERE projection = 'read_models'");
    const runner = new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
      name: 'read_models',
      batchSize: 4,
    });
    expect(await runner.rebuild()).toBe(18);
    expect({ rows: await rows(), agents: await agents() }).toEqual(live);
  });

  it('folds a cold agent from its snapshot, not from revision 0, to the rows a rebuild writes', async () => {
    const warm = createProjectionRunner(pool, store);
    await warm.start();
    const snapshotting = new AgentRepository(store, new PostgresSnapshotStore(pool), agentStateDecider, {
      snapshotEvery: 3,
    });
    const agentId = 'agent-snap';
    const command = (build: (meta: { now: string; command_id: string }) => AgentCommand, through = snapshotting) => {
      seq += 1;
      const built = build({ now: at(), command_id: `c-${seq}` });
      return through.transact({ agentId, commandId: built.meta.command_id, actor: 'test' }, (state) =>
        decide(built, state),
      );
    };
    await command((meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
    for (let i = 0; i < 7; i++)
      await command((meta) => ({
        type: 'CreateWorkItem',
        data: { work_item_id: `s-${i}`, objective: `snap ${i}`, plan_artifact: plan(`s-${i}`) },
        meta,
      }));
    await warm.waitFor((await store.readStream(`agent-${agentId}`)).at(-1)!.position);
    await warm.stop();
    // Snapshots are saved in the background: revisions 0..7, one every 3 events, the last at revision 5.
    const snapshot = await eventually(
      `the snapshot of ${agentId} at revision 5`,
      () => new PostgresSnapshotStore(pool).load<AgentState>(agentId, agentStateDecider.stateVersion),
      (saved) => saved?.revision === 5n,
    );
    expect(snapshot!.revision).toBeGreaterThan(0n);
    // While no runner runs, the agent moves on (through a repository that takes no snapshot of
    // its own): the next runner meets it cold, past its snapshot.
    await command(
      (meta) => ({ type: 'UpdateWorkItem', data: { work_item_id: 's-1', blocked_by: 'a review' }, meta }),
      repository,
    );
    const last = await command((meta) => ({ type: 'PickWorkItem', data: { work_item_id: 's-2' }, meta }), repository);
    const reads: Array<{ stream: string; from: bigint | undefined }> = [];
    const spying = new Proxy(store, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (key === 'readStream') {
          return (stream: string, options?: { from_revision?: bigint }) => {
            reads.push({ stream, from: options?.from_revision });
            return target.readStream(stream, options);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const cold = createProjectionRunner(pool, spying);
    await cold.start();
    await cold.waitFor(last.position!);
    await cold.stop();
    expect(reads.filter((read) => read.stream === `agent-${agentId}`)).toEqual([
      { stream: `agent-${agentId}`, from: snapshot!.revision + 1n },
    ]);
    const live = { rows: await rows(), agents: await agents() };
    const withoutSnapshots = new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
      name: 'read_models',
    });
    await withoutSnapshots.rebuild();
    expect({ rows: await rows(), agents: await agents() }).toEqual(live);
  });

  it('two runners on one projection apply each event once and agree', async () => {
    const first = createProjectionRunner(pool, store);
    const second = createProjectionRunner(pool, store);
    await Promise.all([first.start(), second.start()]);
    const last = await seedAgent('agent-c');
    const position = last.position!;
    await Promise.all([first.waitFor(position), second.waitFor(position)]);
    await Promise.all([first.stop(), second.stop()]);
    const { rows: checkpoint } = await pool.query(
      "SELECT position::text FROM projection_checkpoints WHERE projection = 'read_models'",
    );
    expect(BigInt(checkpoint[0].position)).toBe(position);
    expect(await new WorkItemQueries(pool).agent('agent-c')).toMatchObject({ revision: last.revision!.toString() });
  });
});
