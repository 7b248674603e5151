import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import { AgentRepository } from '@app/application';
import { agentStateDecider } from '@app/core';
import {
  createProjectionRunner,
  PostgresAgentDirectory,
  PostgresSnapshotStore,
  ProjectionRunner,
  READ_MODEL_PROJECTORS,
  WorkItemQueries,
} from '@app/read-models';
import { eventually, fakeEventStoreDb, type FakeEsdbServer } from '@app/event-store/testing';
import { isolatedDatabaseUrl, testPool, testStore } from '../support/postgres';
import { planArtifact } from './support/projection-harness';

/**
 * The projection runner keeps the server's checkpoints (ADR 0043) on the EventStoreDB adapter,
 * the official client with its transport faked: a restarted runner subscribes after the last
 * saved server checkpoint instead of making the server scan again the filtered-out events after
 * its last event, and a checkpoint is saved only once every event handed out before it is
 * applied, so it never skips one. The checkpoint never moves the row's position (the last event).
 */
const WINDOW = 8;

function systemTail(server: FakeEsdbServer, count: number): void {
  for (let i = 0; i < count; i++) {
    if (i % 2) server.write('$stats-127.0.0.1:2113', '$statsCollected');
    else server.write('other-stream', 'SomethingElseHappened');
  }
}

/** The last checkpoint the fake server sends for the whole log: every WINDOW records scanned. */
function lastCheckpoint(server: FakeEsdbServer): bigint {
  return server.log[Math.floor(server.log.length / WINDOW) * WINDOW - 1].position;
}

describe('the projection runner on EventStoreDB keeps the server checkpoints', () => {
  let pool: Pool;
  let seq = 0;

  const subscriptions = (server: FakeEsdbServer) => server.calls.filter((c) => c.kind === 'subscribeToAll');
  const row = async () => {
    const { rows } = await pool.query<{ position: string; resume_position: string | null }>(
      `SELECT position::text AS position, resume_position::text AS resume_position
         FROM projection_checkpoints WHERE projection = 'read_models'`,
    );
    return rows[0] ?? { position: '-1', resume_position: null };
  };
  const ids = async (agentId: string) => {
    const { items } = await new WorkItemQueries(pool).list(agentId, 'all', 50);
    return items.map((item) => item.id).sort();
  };

  async function setup() {
    pool = await testPool(5, await isolatedDatabaseUrl('esdb_resume'));
    const { server, store } = await fakeEventStoreDb({ searchWindow: WINDOW }, { streamPrefixes: ['agent-'] });
    const repository = new AgentRepository<AgentState, AgentEvent>(
      store,
      new PostgresSnapshotStore(pool),
      agentStateDecider,
    );
    const run = async (agentId: string, build: (meta: { now: string; command_id: string }) => AgentCommand) => {
      seq += 1;
      const now = new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();
      const command = build({ now, command_id: `c-${seq}` });
      const result = await repository.transact({ agentId, commandId: command.meta.command_id, actor: 'test' }, (s) =>
        decide(command, s),
      );
      return result.position!;
    };
    const register = (agentId: string) =>
      run(agentId, (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
    const create = (agentId: string, id: string) =>
      run(agentId, (meta) => ({
        type: 'CreateWorkItem',
        data: { work_item_id: id, objective: `do ${id}`, plan_artifact: planArtifact(id) },
        meta,
      }));
    return { server, store, register, create };
  }

  afterEach(async () => {
    await pool.end();
  });

  it('a restarted runner resumes after the saved server checkpoint; its position stays the last event', async () => {
    const { server, store, register, create } = await setup();
    await register('agent-r');
    const last = await create('agent-r', 'w-1');
    systemTail(server, 400);
    const first = createProjectionRunner(pool, store);
    await first.start();
    await first.waitFor(last);
    const checkpoint = lastCheckpoint(server);
    await eventually('the last server checkpoint saved', row, (r) => r.resume_position === checkpoint.toString());
    await first.stop();
    // A resume point only: the position is still the last event applied.
    expect(await row()).toEqual({ position: last.toString(), resume_position: checkpoint.toString() });
    // The scheduler worker starts its subscription there too: every log event up to it is projected.
    expect(await new PostgresAgentDirectory(pool).projectedUpTo()).toBe(checkpoint);

    const second = createProjectionRunner(pool, store);
    await second.start();
    await eventually(
      'the second subscription',
      () => Promise.resolve(subscriptions(server)),
      (c) => c.length === 2,
    );
    const resumed = subscriptions(server)[1];
    expect(resumed.from).toBe(checkpoint);
    const more = await create('agent-r', 'w-2');
    await second.waitFor(more);
    // The server looked only at what follows the checkpoint, not the 400 records after w-1.
    expect(resumed.scanned).toBeLessThan(WINDOW + 1);
    expect(await ids('agent-r')).toEqual(['w-1', 'w-2']);
    expect((await row()).position).toBe(more.toString());
    await second.stop();
    await store.close();
  });

  it('a checkpoint is never saved past an event not yet applied: the restart applies it', async () => {
    const { server, store, register, create } = await setup();
    await register('agent-h');
    let failing = false;
    const held = () =>
      new ProjectionRunner<AgentState>(pool, store, agentStateDecider, READ_MODEL_PROJECTORS, {
        name: 'read_models',
        snapshots: new PostgresSnapshotStore(pool),
        onError: () => undefined,
        onApplied: async () => {
          if (failing) throw new Error('the batch does not commit');
        },
      });
    const runner = held();
    await runner.start();
    await eventually('the registration applied', row, (r) => r.position !== '-1');
    failing = true;
    const pending = await create('agent-h', 'w-1');
    systemTail(server, 400);
    // The server scans past w-1 and the 400 records after it, sending checkpoints all the way.
    await eventually(
      'the server scanned the tail',
      () => Promise.resolve(subscriptions(server)),
      (calls) => calls.some((c) => c.scanned >= 400),
    );
    // A window in which a wrong save would land: the checkpoints past w-1 have all been told.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stuck = await row();
    expect(stuck.resume_position === null || BigInt(stuck.resume_position) < pending).toBe(true);
    expect(BigInt(stuck.position)).toBeLessThan(pending);
    await runner.stop();

    failing = false;
    const restarted = held();
    await restarted.start();
    await restarted.waitFor(pending);
    expect(await ids('agent-h')).toEqual(['w-1']);
    await eventually('the checkpoint saved once w-1 is applied', row, (r) => r.resume_position !== null);
    expect(BigInt((await row()).resume_position!)).toBeGreaterThan(pending);
    await restarted.stop();
    await store.close();
  });

  it('the Postgres store sends none: nothing is saved beyond the last event', async () => {
    const { store } = await setup();
    await store.close();
    const postgres = await testStore(pool);
    const runner = createProjectionRunner(pool, postgres);
    await runner.start();
    await runner.stop();
    expect((await row()).resume_position).toBeNull();
  });
});
