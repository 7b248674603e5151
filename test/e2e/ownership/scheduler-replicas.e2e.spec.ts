import { Pool } from 'pg';
import { SCHEDULER_WORKER, type SchedulerWorker } from '@app/application';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { DEFAULT_SCHEDULER_SHARDS, shardOf } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { decisionsOf, quiet, seedAgents } from './fleet-support';

jest.setTimeout(180_000);

const AGENTS = 150;

/**
 * Scheduler ownership (ADR 0035): two scheduler replicas (two runtimes in this process, each with
 * its own repository and cache, as two processes would have) on one store split the 256 shards;
 * each acts only on the agents of its shards. On 150 new agents they record what one worker
 * records for each, no decision key twice, and every decision names the lease it was made under.
 */
describe('two scheduler replicas on one store', () => {
  let url: string;
  let pool: Pool;
  const apps: TestApp[] = [];
  const workerOf = (app: TestApp) => app.runtime.app.get<SchedulerWorker>(SCHEDULER_WORKER);
  const storeOf = (app: TestApp) => app.runtime.app.get<EventStore>(EVENT_STORE);
  const owners = async () =>
    (
      await pool.query<{ owner: string; shards: number }>(
        `SELECT owner, count(*)::int AS shards FROM ownership_leases
          WHERE lease_group = 'scheduler' AND expires_at > now() GROUP BY owner ORDER BY owner`,
      )
    ).rows;

  beforeAll(async () => {
    url = await isolatedDatabaseUrl('sched_replicas');
    pool = new Pool({ connectionString: url, max: 2 });
    const env = { DATABASE_URL: url, SCHEDULER_LEASE_TTL_MS: '3000' };
    apps.push(await startTestApp({ scheduler: true, env }), await startTestApp({ scheduler: true, env }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await pool?.end();
  });

  it('the replicas split the shards: each holds half once the second has joined', async () => {
    const split = await eventually(
      'the shards are split',
      owners,
      (rows) => rows.length === 2 && rows.every((row) => row.shards === DEFAULT_SCHEDULER_SHARDS / 2),
      { timeoutMs: 20_000 },
    );
    expect(split.map((row) => row.shards)).toEqual([128, 128]);
  });

  it('150 new agents: the decisions of one worker per agent, no decision key twice, each under the lease of its shard', async () => {
    // What one worker records for such an agent (its own store).
    const single = await startTestApp({ scheduler: true });
    let expected: string[];
    try {
      const few = Array.from({ length: 5 }, () => freshId('solo'));
      await seedAgents(storeOf(single), few);
      await quiet(storeOf(single), [workerOf(single)]);
      const solo = await Promise.all(few.map((agent) => decisionsOf(storeOf(single), agent)));
      expected = solo[0].kinds;
      expect(expected.length).toBeGreaterThan(0);
      for (const agent of solo) {
        expect(agent.kinds).toEqual(expected);
        expect(agent.duplicateKeys).toEqual([]);
      }
    } finally {
      await single.close();
    }

    const store = storeOf(apps[0]);
    const agents = Array.from({ length: AGENTS }, () => freshId('fleet'));
    await seedAgents(store, agents);
    await quiet(store, apps.map(workerOf));

    const leases = new Map(
      (
        await pool.query<{ shard: number; owner: string; epoch: string }>(
          `SELECT shard, owner, epoch::text AS epoch FROM ownership_leases WHERE lease_group = 'scheduler'`,
        )
      ).rows.map((row) => [row.shard, row] as const),
    );
    const replicas = (
      await pool.query<{ owner: string }>(`SELECT DISTINCT owner FROM ownership_leases WHERE lease_group = 'scheduler'`)
    ).rows.map((row) => row.owner);
    expect(replicas).toHaveLength(2);
    const actedBy = new Set<string>();
    const problems: string[] = [];
    for (const agent of agents) {
      const { kinds, events, duplicateKeys } = await decisionsOf(store, agent);
      if (JSON.stringify(kinds) !== JSON.stringify(expected)) problems.push(`${agent}: ${kinds.join(', ')}`);
      if (duplicateKeys.length > 0) problems.push(`${agent}: recorded twice ${duplicateKeys.join(', ')}`);
      const shard = shardOf(agent, DEFAULT_SCHEDULER_SHARDS);
      for (const event of events) {
        const meta = event.metadata as Record<string, unknown>;
        const lease = leases.get(shard)!;
        actedBy.add(String(meta.lease_owner));
        // The shard's lease at the time: its epoch is at most today's (a lapse under load may have
        // given the shard a new epoch since, to the same replica or the other).
        const known = replicas.includes(String(meta.lease_owner));
        if (meta.lease_shard !== shard || !known || !(Number(meta.lease_epoch) <= Number(lease.epoch)))
          problems.push(
            `${agent}: decided under ${JSON.stringify(meta)}, its shard ${shard} is ${JSON.stringify(lease)}`,
          );
      }
    }
    expect(problems).toEqual([]);
    // Both replicas did their share of the work.
    expect(actedBy.size).toBe(2);
  });
});
