import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, projected } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';

jest.setTimeout(120_000);

/**
 * Issue 18 item 6: plan bodies every replica can read. Two replicas with their own AGENT_HOME on
 * one database: the second reads the plan the first wrote (its body is in Postgres); a body gone
 * from both places answers 409 `plan_missing`, never an empty plan, and nothing is recorded.
 */
describe('plan bodies across replicas, and a plan that is nowhere', () => {
  const agent = freshId('plans');
  const body = '# Plan\n\n- write it on one replica\n- read it on the other ✓\n';
  let url: string;
  let pool: Pool;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    url = await isolatedDatabaseUrl('plan_missing');
    pool = new Pool({ connectionString: url, max: 2 });
    for (let i = 0; i < 2; i++) apps.push(await startTestApp({ tokens: 'tok-admin=*', env: { DATABASE_URL: url } }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await pool?.end();
  });

  const home = (app: TestApp) => join(app.dataDir, 'agent-home', agent, 'work-items', 'w-1', 'plan.md');
  const revision = () => apps[0].runtime.app.get<EventStore>(EVENT_STORE).streamRevision(agentStream(agent));

  it('the second replica reads the plan the first wrote, byte for byte', async () => {
    const [a, b] = apps.map((app) => httpClient(app, 'tok-admin'));
    expect((await a('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const created = await a('POST', `/v1/agents/${agent}/work-items`, {
      work_item_id: 'w-1',
      objective: 'o',
      plan: body,
    });
    expect(created.status).toBe(201);
    expect(existsSync(home(apps[1]))).toBe(false);
    const read = await b('GET', `/v1/agents/${agent}/work-items/w-1/plan`);
    expect(read.status).toBe(200);
    expect(read.body).toBe(body);
    expect(existsSync(home(apps[1]))).toBe(true); // its working copy, restored from the shared store
  });

  it('a body deleted from both places answers plan_missing on reads and writes, and nothing is recorded', async () => {
    const [a, b] = apps.map((app) => httpClient(app, 'tok-admin'));
    await projected(apps[0]);
    const recorded = (await a('GET', `/v1/agents/${agent}/work-items/w-1`)).body.plan_artifact;
    for (const app of apps) rmSync(home(app), { force: true });
    await pool.query('DELETE FROM plan_bodies WHERE hash = $1', [recorded.hash]);
    const before = await revision();

    for (const request of [a, b]) {
      const read = await request('GET', `/v1/agents/${agent}/work-items/w-1/plan`);
      expect(read.status).toBe(409);
      expect(read.body.error).toMatchObject({
        code: 'plan_missing',
        details: { agent_id: agent, work_item_id: 'w-1', hash: recorded.hash },
      });
      const patched = await request('PATCH', `/v1/agents/${agent}/work-items/w-1`, { plan_status: 'ready' });
      expect(patched.status).toBe(409);
      expect(patched.body.error.code).toBe('plan_missing');
      // The view keeps the recorded descriptor: not an empty plan.
      const view = await request('GET', `/v1/agents/${agent}/work-items/w-1`);
      expect(view.status).toBe(200);
      expect(view.body.plan_artifact).toMatchObject({ hash: recorded.hash, byte_size: Buffer.byteLength(body) });
    }
    expect(await revision()).toBe(before);
    // Nothing was written back as empty either.
    for (const app of apps) expect(existsSync(home(app))).toBe(false);
    const kept = await pool.query('SELECT count(*)::int AS n FROM plan_bodies WHERE size = 0');
    expect(kept.rows[0].n).toBe(0);
  });
});
