import { Pool } from 'pg';
import type { AgentState } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { type LeaseKeeper, PROJECTION_RUNNER, PROJECTOR_LEASE, type ProjectionRunner } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { applyLogHook, ensureApplyLog, readApplyLog } from '../../reliability/support/apply-log';
import { assertCleanHistory, checkHistory } from '../../reliability/support/history';

/**
 * Projector ownership (ADR 0035): two projector replicas on one store, one lease. The first holds
 * it and applies every event; the second is a standby whose reads still wait for the read models;
 * when the active one stops renewing (a hung process), the standby takes over within the TTL and
 * the hung one applies nothing more. Every position is applied exactly once, and the read models
 * equal a rebuild.
 */
describe('projector ownership: one active projector, a standby that takes over', () => {
  const TTL_MS = 1_000;
  let url: string;
  let pool: Pool;
  let active: TestApp;
  let standby: TestApp;
  const runnerOf = (app: TestApp) => app.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
  const leaseOf = (app: TestApp) => app.runtime.app.get<LeaseKeeper>(PROJECTOR_LEASE);
  const admin = (app: TestApp) => httpClient(app, 'tok-admin');
  const workload = async (app: TestApp, agent: string, items: number) => {
    expect((await admin(app)('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    let position = '0';
    for (let i = 0; i < items; i++) {
      const reply = await admin(app)('POST', `/v1/agents/${agent}/work-items`, {
        work_item_id: `w-${i}`,
        objective: 'o',
      });
      expect(reply.status).toBe(201);
      position = reply.body.position;
    }
    return position;
  };

  beforeAll(async () => {
    url = await isolatedDatabaseUrl('projector_lease');
    const env = { DATABASE_URL: url, PROJECTOR_LEASE_TTL_MS: String(TTL_MS) };
    active = await startTestApp({ env });
    standby = await startTestApp({ env });
    pool = new Pool({ connectionString: url, max: 2 });
    await ensureApplyLog(pool);
    runnerOf(active).setApplyHook(applyLogHook('active'));
    runnerOf(standby).setApplyHook(applyLogHook('standby'));
  });
  afterAll(async () => {
    await standby?.close();
    await active?.close();
    await pool?.end();
  });

  it('the first replica holds the lease and applies every event; the standby reads with min_position all the same', async () => {
    expect(runnerOf(active).active).toBe(true);
    expect(runnerOf(standby).active).toBe(false);
    expect(leaseOf(active).shards()).toEqual([0]);
    expect(leaseOf(standby).shards()).toEqual([]);
    const head = (await active.runtime.app.get<EventStore>(EVENT_STORE).headPosition()) ?? -1n;
    const agent = freshId('agent');
    const position = await workload(active, agent, 5);
    // Read-your-writes on the standby: its runner is stopped, the database tells it the checkpoint.
    const read = await admin(standby)('GET', `/v1/agents/${agent}/work-items?min_position=${position}`);
    expect(read.status).toBe(200);
    expect(read.body.items).toHaveLength(5);
    await runnerOf(standby).waitFor(BigInt(position));
    const log = await readApplyLog(pool, head);
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((entry) => entry.times === 1 && entry.runners[0] === 'active')).toBe(true);
  });

  it('when the active replica stops renewing, the standby takes over within the TTL and the hung one applies nothing more', async () => {
    const head = (await active.runtime.app.get<EventStore>(EVENT_STORE).headPosition()) ?? -1n;
    leaseOf(active).suspend();
    const suspendedAt = Date.now();
    await eventually(
      'the standby runs',
      () => runnerOf(standby).active,
      (running) => running,
      { timeoutMs: 10_000 },
    );
    // The lease lapses after the TTL; the standby's next round (a third of the TTL) claims it.
    expect(Date.now() - suspendedAt).toBeLessThan(TTL_MS * 2 + 2_000);
    const agent = freshId('agent');
    const position = await workload(active, agent, 4);
    const read = await admin(active)('GET', `/v1/agents/${agent}/work-items?min_position=${position}`);
    expect(read.status).toBe(200);
    expect(read.body.items).toHaveLength(4);
    const log = await readApplyLog(pool, head);
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((entry) => entry.times === 1 && entry.runners[0] === 'standby')).toBe(true);
    const rows = await pool.query(
      `SELECT owner, epoch::int AS epoch FROM ownership_leases WHERE lease_group = 'projector'`,
    );
    // Claimed by the standby under a new epoch (more than one if its own lease lapsed under load since).
    expect(rows.rows).toEqual([{ owner: leaseOf(standby).owner, epoch: expect.any(Number) }]);
    expect(rows.rows[0].epoch).toBeGreaterThanOrEqual(2);
  });

  it('every position was applied exactly once, and the read models equal a rebuild', async () => {
    assertCleanHistory(await checkHistory({ url, applyLog: { after: -1n }, rebuild: true }));
  });
});
