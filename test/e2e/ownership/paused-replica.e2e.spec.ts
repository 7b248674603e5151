import { Pool } from 'pg';
import { LeaseLostError, SchedulerStepService } from '@app/application';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore, type StoredEvent } from '@app/event-store';
import { type LeaseAudit, schedulerOwnership, type ShardOwnership } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { seedAgents } from './fleet-support';

jest.setTimeout(120_000);

/**
 * Fencing (ADR 0035): replica A decides for an agent under its lease, then "pauses" (its clock
 * jumps past the lease's deadline; in the database the lease lapses) before it writes. Replica B
 * claims the shard (a new epoch); a caller writes to the agent and B records the decision on that
 * state. When A wakes, its write names the stream revision its decision was computed from: the
 * store refuses it, and A's retry finds its lease gone and stops. One decision for that state, made under B's lease.
 * The two replicas are two runtimes in this process (each its own repository and cache) with no
 * worker; the spec drives their steps and lease rounds by hand, on a monotonic clock of its own.
 */
describe('a paused scheduler replica cannot record a second decision for the same state', () => {
  const TTL_MS = 60_000;
  let url: string;
  let pool: Pool;
  let a: TestApp;
  let b: TestApp;
  let clockA = 0;
  let clockB = 0;
  let ownershipA: ShardOwnership;
  let ownershipB: ShardOwnership;
  const stepsOf = (app: TestApp) => app.runtime.app.get(SchedulerStepService);
  const decisions = async (store: EventStore, agent: string): Promise<StoredEvent[]> =>
    (await store.readStream(agentStream(agent))).filter((e) => e.type === 'SchedulerDecisionRecorded');

  beforeAll(async () => {
    url = await isolatedDatabaseUrl('paused_replica');
    const env = { DATABASE_URL: url, RUNTIME_ROLE: 'api,projector' };
    a = await startTestApp({ env });
    b = await startTestApp({ env });
    pool = new Pool({ connectionString: url, max: 2 });
    const settings = { schedulerShards: 4, schedulerLeaseTtlMs: TTL_MS };
    ownershipA = schedulerOwnership(pool, settings, { owner: 'replica-a', autoRenew: false, now: () => clockA });
    ownershipB = schedulerOwnership(pool, settings, { owner: 'replica-b', autoRenew: false, now: () => clockB });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await pool?.end();
  });

  it('A holds every shard; B, joining, gets none until A lets go', async () => {
    await ownershipA.start();
    await ownershipB.start();
    expect(ownershipA.keeper.shards()).toEqual([0, 1, 2, 3]);
    expect(ownershipB.keeper.shards()).toEqual([]);
  });

  it("A's late write is refused by the store, its retry stops on the lost lease, and B's decision is the only one", async () => {
    const store = a.runtime.app.get<EventStore>(EVENT_STORE);
    const agent = freshId('paused');
    await seedAgents(store, [agent]);
    const before = (await store.readStream(agentStream(agent))).length;
    const shard = ownershipA.shardOf(agent);

    let fenceCalls = 0;
    let bDecided: Awaited<ReturnType<SchedulerStepService['step']>> = null;
    // A's fence: the lease it checked just before the pause, then what it knows after waking.
    const fenceA = async (): Promise<LeaseAudit | null> => {
      fenceCalls += 1;
      const lease = ownershipA.leaseOf(agent);
      if (fenceCalls > 1) return lease;
      expect(lease).toMatchObject({ lease_shard: shard, lease_epoch: 1, lease_owner: 'replica-a' });
      // The pause: A's clock passes its deadline, the lease lapses in the database, B claims the shard.
      clockA += TTL_MS;
      await pool.query(
        `UPDATE ownership_leases SET expires_at = now() - interval '1 second' WHERE lease_group = 'scheduler' AND owner = 'replica-a'`,
      );
      await pool.query(
        `UPDATE ownership_members SET expires_at = now() - interval '1 second' WHERE lease_group = 'scheduler' AND owner = 'replica-a'`,
      );
      // Meanwhile a caller writes to the agent (a new state version), and B decides on that state.
      const item = await httpClient(b, 'tok-admin')('POST', `/v1/agents/${agent}/work-items`, {
        work_item_id: 'w-2',
        objective: 'more',
      });
      expect(item.status).toBe(201);
      await ownershipB.keeper.round();
      expect(ownershipB.leaseOf(agent)).toMatchObject({ lease_shard: shard, lease_epoch: 2, lease_owner: 'replica-b' });
      bDecided = await stepsOf(b).step(agent, { fence: () => ownershipB.leaseOf(agent) });
      return lease;
    };

    await expect(stepsOf(a).step(agent, { fence: fenceA })).rejects.toBeInstanceOf(LeaseLostError);
    expect(fenceCalls).toBe(2); // the first write was tried (and refused), the retry stopped before writing
    expect(bDecided).not.toBeNull();

    // A's write (key sched:<seeded version>:record, expecting the seeded revision) never landed: the
    // caller's write had moved the stream on, so the store refused it (not a repeat of B's key).
    const all = await store.readStream(agentStream(agent));
    expect(all.map((e) => (e.metadata as Record<string, unknown>).command_id)).not.toContain(`sched:${before}:record`);
    const recorded = await decisions(store, agent);
    expect(recorded).toHaveLength(1);
    expect(recorded[0].metadata).toMatchObject({ command_id: `sched:${before + 1}:record` });
    expect(recorded[0].metadata).toMatchObject({
      lease_group: 'scheduler',
      lease_shard: shard,
      lease_epoch: 2,
      lease_owner: 'replica-b',
    });
    // Nothing at all was written under A's lease.
    expect(all.filter((e) => (e.metadata as Record<string, unknown>).lease_owner === 'replica-a')).toEqual([]);
  });

  it('a paused replica acts on nothing until a lease round gives it shards again', async () => {
    expect(ownershipA.keeper.shards()).toEqual([]);
    clockB += TTL_MS; // B pauses too: its deadline passes, nobody else claims meanwhile
    expect(ownershipB.leaseOf('anyone')).toBeNull();
    await ownershipB.keeper.round(); // B wakes: its round claims or renews every shard (A left the group)
    expect(ownershipB.keeper.shards()).toEqual([0, 1, 2, 3]);
  });
});
