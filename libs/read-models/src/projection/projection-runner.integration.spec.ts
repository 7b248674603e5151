import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { AgentRepository } from '@app/application/agents/agent-repository';
import { agentStateDecider } from '@app/application/agents/agent-state-decider';
import { isolatedDatabaseUrl, testPool, testStore } from '../../../../test/support/postgres';
import { PostgresSnapshotStore } from '../snapshots/postgres-snapshot-store';
import { createProjectionRunner, READ_MODEL_PROJECTORS } from '../read-models.module';
import { ProjectionRunner } from './projection-runner';
import { WorkItemQueries } from '../work-items/work-items.queries';

const plan = (id: string) => ({
  path: `/h/a/work-items/${id}/plan.md`, relative_path: `work-items/${id}/plan.md`, hash: 'sha256:0', byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z', preview: '', preview_complete: true,
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
    const result = await repository.transact({ agentId, commandId: command.meta.command_id, actor: 'test' }, (s) => decide(command, s));
    if (result.position !== null && result.position > newest) newest = result.position;
    return result;
  };
  const seedAgent = async (agentId: string) => {
    await run(agentId, (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
    for (const id of ['w-1', 'w-2', 'w-3']) {
      await run(agentId, (meta) => ({ type: 'CreateWorkItem', data: { work_item_id: id, objective: `do ${id}`, plan_artifact: plan(id) }, meta }));
    }
    await run(agentId, (meta) => ({ type: 'PickWorkItem', data: { work_item_id: 'w-1' }, meta }));
    await run(agentId, (meta) => ({ type: 'UpdateWorkItem', data: { work_item_id: 'w-2', blocked_by: 'waiting for review' }, meta }));
    await run(agentId, (meta) => ({ type: 'PickWorkItem', data: { work_item_id: 'w-3', reason: 'more urgent' }, meta }));
    return run(agentId, (meta) => ({ type: 'CompleteWorkItem', data: { work_item_id: 'w-3' }, meta }));
  };
  const rows = async () =>
    (await pool.query('SELECT agent_id, id, readiness, candidate_class, is_current, view FROM work_items ORDER BY agent_id, id')).rows;
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
    expect(await queries.get('agent-a', 'w-1')).toMatchObject({ readiness: 'runnable', is_current: false, candidate_class: 'queued_runnable' });
    expect(await queries.get('agent-a', 'w-2')).toMatchObject({ readiness: 'blocked', blocked_by: 'waiting for review' });
    expect(await queries.get('agent-a', 'w-3')).toMatchObject({ state: 'completed', candidate_class: 'completed_recent' });
    expect(await queries.list('agent-a', 'queued', 20)).toMatchObject({ total: 1, items: [{ id: 'w-1' }] });
    expect(await queries.agent('agent-b')).toMatchObject({ agent_id: 'agent-b', current_work_item_id: null, revision: '8' });
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
    const runner = new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, { name: 'read_models', batchSize: 4 });
    expect(await runner.rebuild()).toBe(18);
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
    const { rows: checkpoint } = await pool.query("SELECT position::text FROM projection_checkpoints WHERE projection = 'read_models'");
    expect(BigInt(checkpoint[0].position)).toBe(position);
    expect(await new WorkItemQueries(pool).agent('agent-c')).toMatchObject({ revision: last.revision!.toString() });
  });
});
