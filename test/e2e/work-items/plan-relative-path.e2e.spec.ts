import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, projected } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';

/**
 * Issue 14 item 4: plan events keep the plan's path relative to the agent's home and its hash,
 * nothing of the machine that wrote them; each replica shows the path under its own AGENT_HOME.
 * Two replicas share one store and one read model, each with an AGENT_HOME of its own.
 */
describe('plan descriptors in events and views', () => {
  const agent = freshId('relpath');
  const relative = 'work-items/w-rel/plan.md';
  let writer: TestApp;
  let reader: TestApp;
  const localPath = (app: TestApp) => join(app.dataDir, 'agent-home', agent, relative);

  beforeAll(async () => {
    const env = { DATABASE_URL: await isolatedDatabaseUrl('plan_rel') };
    writer = await startTestApp({ tokens: 'tok-admin=*', env });
    // Another replica on the same store: the API only, one projector is enough.
    reader = await startTestApp({ tokens: 'tok-admin=*', env: { ...env, RUNTIME_ROLE: 'api' } });
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
  });

  it('records no absolute path while views and replies show the local path and relative_path', async () => {
    const w = httpClient(writer, 'tok-admin');
    expect((await w('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const created = await w('POST', `/v1/agents/${agent}/work-items`, {
      work_item_id: 'w-rel',
      objective: 'keep the plan portable',
      plan: '# Plan\nstep one\n',
    });
    expect(created.status).toBe(201);
    expect(created.body.work_item.plan_artifact).toMatchObject({ path: localPath(writer), relative_path: relative });
    const replaced = await w('PUT', `/v1/agents/${agent}/work-items/w-rel/plan`, '# Plan\nstep two\n');
    expect(replaced.status).toBe(200);
    expect(replaced.body.work_item.plan_artifact).toMatchObject({ path: localPath(writer), relative_path: relative });

    // The events, read back: the descriptor holds relative_path and the hash, no path.
    const events = await w('GET', `/v1/agents/${agent}/events`);
    expect(events.status).toBe(200);
    const plans = events.body.items.filter((e: { type: string }) =>
      ['WorkItemCreated', 'PlanArtifactRefreshed'].includes(e.type),
    );
    expect(plans.map((e: { type: string }) => e.type)).toEqual(['WorkItemCreated', 'PlanArtifactRefreshed']);
    for (const event of plans) {
      expect(event.metadata).toMatchObject({ schema_version: 2 });
      expect(event.metadata).not.toHaveProperty('stored_schema_version');
      expect(event.data.plan_artifact).not.toHaveProperty('path');
      expect(event.data.plan_artifact).toMatchObject({
        relative_path: relative,
        hash: expect.stringMatching(/^sha256:/),
      });
    }
    const everything = JSON.stringify(events.body.items);
    expect(everything).not.toContain(writer.dataDir);
    expect(everything).not.toContain(`"path"`);

    // The view, on the writer's replica: its own path plus relative_path.
    await projected(writer);
    const mine = (await w('GET', `/v1/agents/${agent}/work-items/w-rel`)).body.plan_artifact;
    expect(mine).toMatchObject({
      path: localPath(writer),
      relative_path: relative,
      hash: plans[1].data.plan_artifact.hash,
    });
  });

  it('shows each replica its own path for the same events (views, lists, context)', async () => {
    const w = httpClient(writer, 'tok-admin');
    const r = httpClient(reader, 'tok-admin');
    await projected(writer);
    expect(localPath(reader)).not.toBe(localPath(writer));
    for (const [client, app] of [
      [w, writer],
      [r, reader],
    ] as const) {
      const item = (await client('GET', `/v1/agents/${agent}/work-items/w-rel`)).body;
      expect(item.plan_artifact).toMatchObject({ path: localPath(app), relative_path: relative });
      const list = (await client('GET', `/v1/agents/${agent}/work-items`)).body;
      expect(list.items[0].plan_artifact).toMatchObject({ path: localPath(app), relative_path: relative });
      await client('POST', `/v1/agents/${agent}/work-items/w-rel/pick`, { reason: 'look at it here' });
      const context = (await client('GET', `/v1/agents/${agent}/context`)).body;
      const current = context.sections.find((s: { name: string }) => s.name === 'current_work_item');
      expect(current.content.plan_artifact).toMatchObject({ path: localPath(app), relative_path: relative });
      expect(current.text).toContain(`Plan: ${relative}`);
      expect(current.text).not.toContain(app.dataDir);
    }
    // A write on the other replica answers with that replica's path, and records no path either.
    const patched = await r('PATCH', `/v1/agents/${agent}/work-items/w-rel`, { plan_status: 'ready' });
    expect(patched.status).toBe(200);
    expect(patched.body.work_item.plan_artifact).toMatchObject({ path: localPath(reader), relative_path: relative });
    const events = (await r('GET', `/v1/agents/${agent}/events`)).body.items;
    expect(JSON.stringify(events)).not.toContain(reader.dataDir);
  });
});
