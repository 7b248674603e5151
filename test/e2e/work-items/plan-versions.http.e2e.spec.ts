import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';

describe('plan versions over HTTP', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let scoped: ReturnType<typeof httpClient>;
  let anonymous: ReturnType<typeof httpClient>;
  const base = `/v1/agents/${mine}/work-items`;

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}` });
    scoped = httpClient(app, 'tok-mine');
    anonymous = httpClient(app);
    expect((await scoped('POST', '/v1/agents', { agent_id: mine })).status).toBe(201);
    expect((await httpClient(app, 'tok-admin')('POST', '/v1/agents', { agent_id: other })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it('lists the hashes the events recorded, newest first, and reads each back by hash', async () => {
    const created = await scoped('POST', base, { work_item_id: 'w-v', objective: 'versions', plan: '# One\n' });
    const first = created.body.work_item.plan_artifact;
    const second = (await scoped('PUT', `${base}/w-v/plan`, '# Two, longer\n')).body.work_item.plan_artifact;
    expect(second.hash).not.toBe(first.hash);

    const versions = await scoped('GET', `${base}/w-v/plan/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body).toEqual({
      items: [
        { hash: second.hash, updated_at: second.updated_at, byte_size: 14 },
        { hash: first.hash, updated_at: first.updated_at, byte_size: 6 },
      ],
      total: 2,
    });

    const old = await scoped('GET', `${base}/w-v/plan?version=${encodeURIComponent(first.hash)}`);
    expect(old.status).toBe(200);
    expect(old.headers.get('content-type')).toContain('text/markdown');
    expect(old.body).toBe('# One\n');
    expect((await scoped('GET', `${base}/w-v/plan?version=${encodeURIComponent(second.hash)}`)).body).toBe(
      '# Two, longer\n',
    );
    expect((await scoped('GET', `${base}/w-v/plan`)).body).toBe('# Two, longer\n');
  });

  it("answers 404 for a hash the item never recorded (even another item's), an unknown item or agent", async () => {
    const other_item = await scoped('POST', base, { work_item_id: 'w-x', objective: 'x', plan: '# Elsewhere\n' });
    await scoped('POST', base, { work_item_id: 'w-y', objective: 'y', plan: '# Here\n' });
    const foreign = encodeURIComponent(other_item.body.work_item.plan_artifact.hash);
    expect((await scoped('GET', `${base}/w-y/plan?version=${foreign}`)).status).toBe(404);
    expect((await scoped('GET', `${base}/w-y/plan?version=not-a-hash`)).status).toBe(404);
    expect((await scoped('GET', `${base}/missing/plan/versions`)).status).toBe(404);
    expect((await scoped('GET', `${base}/missing/plan?version=${foreign}`)).status).toBe(404);
  });

  it('needs a read role: 401 without a token, 403 for another agent', async () => {
    expect((await anonymous('GET', `${base}/w-v/plan/versions`)).status).toBe(401);
    expect((await scoped('GET', `/v1/agents/${other}/work-items/w-v/plan/versions`)).status).toBe(403);
  });
});
