import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, projected } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { cli, exportLines, tempDir } from '../audit/support/cli-harness';

/**
 * Issue 14 item 4: an agent exported from one deployment and imported into another read its
 * plans as empty, dated 1970, and the next write recorded them as emptied. Plan bodies are now
 * kept content-addressed in Postgres, exported by hash and restored by the import.
 */
describe('plans across export and import', () => {
  const agent = freshId('planner');
  const body = '# Plan — étape un ✓\n\n- 第二步: ship it\n';
  let source: TestApp;
  let target: TestApp | undefined;
  let sourceUrl: string;
  let work: string;

  beforeAll(async () => {
    sourceUrl = await isolatedDatabaseUrl('plan_src');
    source = await startTestApp({ tokens: 'tok-admin=*', env: { DATABASE_URL: sourceUrl } });
    work = tempDir('plan-export-');
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('keeps the body byte for byte, its date, and records no change at the next write', async () => {
    const a = httpClient(source, 'tok-admin');
    expect((await a('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const created = await a('POST', `/v1/agents/${agent}/work-items`, {
      work_item_id: 'w-plan',
      objective: 'carry the plan',
      plan: body,
    });
    expect(created.status).toBe(201);
    await projected(source);
    const original = (await a('GET', `/v1/agents/${agent}/work-items/w-plan`)).body.plan_artifact;
    expect(original).toMatchObject({ byte_size: Buffer.byteLength(body), relative_path: 'work-items/w-plan/plan.md' });

    const sourceEnv = { DATABASE_URL: sourceUrl, RUNTIME_DATA_DIR: source.dataDir };
    expect((await cli(['export', agent, 'out'], sourceEnv, work)).code).toBe(0);
    // The exported events name the plan relative to the agent's home only: nothing of the source's AGENT_HOME.
    expect(readFileSync(join(work, 'out', 'events.jsonl'), 'utf8')).not.toContain(source.dataDir);

    const targetUrl = await isolatedDatabaseUrl('plan_dst');
    target = await startTestApp({ tokens: 'tok-admin=*', env: { DATABASE_URL: targetUrl } });
    const imported = await cli(['import', 'out'], { DATABASE_URL: targetUrl, RUNTIME_DATA_DIR: target.dataDir }, work);
    expect(imported).toMatchObject({ code: 0 });
    await projected(target);
    const b = httpClient(target, 'tok-admin');

    // The body reads back exactly, from Postgres (this replica's AGENT_HOME never held it).
    const plan = await b('GET', `/v1/agents/${agent}/work-items/w-plan/plan`);
    expect(plan.status).toBe(200);
    expect(Buffer.from(plan.body, 'utf8').equals(Buffer.from(body, 'utf8'))).toBe(true);

    // The view: same hash, size and date; the path is under this replica's AGENT_HOME.
    const item = (await b('GET', `/v1/agents/${agent}/work-items/w-plan`)).body;
    expect(item.plan_artifact).toEqual({
      ...original,
      path: join(target.dataDir, 'agent-home', agent, 'work-items', 'w-plan', 'plan.md'),
    });
    expect(item.plan_artifact.updated_at).not.toMatch(/^1970/);
    // The working copy is back under this replica's home, byte for byte.
    expect(existsSync(item.plan_artifact.path)).toBe(true);
    expect(readFileSync(item.plan_artifact.path).equals(Buffer.from(body, 'utf8'))).toBe(true);

    // The next write records its own change only: no refresh, no "emptied" plan.
    const patched = await b('PATCH', `/v1/agents/${agent}/work-items/w-plan`, { plan_status: 'ready' });
    expect(patched.status).toBe(200);
    expect(patched.body.work_item.plan_artifact).toEqual(item.plan_artifact);
    const targetEnv = { DATABASE_URL: targetUrl, RUNTIME_DATA_DIR: target.dataDir };
    expect((await cli(['export', agent, 'again'], targetEnv, work)).code).toBe(0);
    const types = exportLines(join(work, 'again')).map((event) => event.type);
    expect(types.filter((type) => type === 'PlanArtifactRefreshed')).toEqual([]);
    expect(types[types.length - 1]).toBe('WorkItemUpdated');
    // And the second export carries the same body under the same hash.
    const hex = original.hash.slice('sha256:'.length);
    expect(readFileSync(join(work, 'again', 'plans', 'sha256', hex)).equals(Buffer.from(body, 'utf8'))).toBe(true);
  });
});
