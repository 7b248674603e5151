import { existsSync, readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, projected } from '../../support/http';
import { freshId } from '../../support/postgres';

describe('work items over HTTP', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let admin: ReturnType<typeof httpClient>;
  let scoped: ReturnType<typeof httpClient>;
  let anonymous: ReturnType<typeof httpClient>;
  const base = `/v1/agents/${mine}/work-items`;

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}` });
    admin = httpClient(app, 'tok-admin');
    scoped = httpClient(app, 'tok-mine');
    anonymous = httpClient(app);
    expect((await scoped('POST', '/v1/agents', { agent_id: mine })).status).toBe(201);
    expect((await admin('POST', '/v1/agents', { agent_id: other })).status).toBe(201);
  });
  afterAll(() => app?.close());

  describe('agents', () => {
    it('registers an agent once: 201 with the summary and revision, then 409', async () => {
      const id = freshId('agent');
      const created = await admin('POST', '/v1/agents', { agent_id: id });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        agent: { agent_id: id, posture: 'awake_idle', current_work_item_id: null },
        revision: '0',
      });
      const again = await admin('POST', '/v1/agents', { agent_id: id });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('conflict');
    });

    it('refuses a token that does not name the agent (403) and a missing token (401), writing nothing', async () => {
      const id = freshId('agent');
      expect((await scoped('POST', '/v1/agents', { agent_id: id })).status).toBe(403);
      expect((await anonymous('POST', '/v1/agents', { agent_id: id })).status).toBe(401);
      expect((await scoped('POST', `/v1/agents/${other}/work-items`, { objective: 'x' })).status).toBe(403);
      await projected(app);
      expect((await admin('GET', `/v1/agents/${id}`)).status).toBe(404);
      expect((await admin('GET', `/v1/agents/${other}`)).body.work_item_counts.all).toBe(0);
    });

    it('answers the summary with posture, focus and counts', async () => {
      await projected(app);
      const summary = await scoped('GET', `/v1/agents/${mine}`);
      expect(summary.status).toBe(200);
      expect(summary.body).toMatchObject({ agent_id: mine, posture: 'awake_idle' });
    });
  });

  describe('creating', () => {
    it('creates an open draft item with its plan file seeded, not focused (201)', async () => {
      const reply = await scoped('POST', base, {
        work_item_id: 'w-create',
        objective: '  Ship the report  ',
        plan: '# Plan\nstep one',
      });
      expect(reply.status).toBe(201);
      expect(reply.body.warnings).toEqual([]);
      expect(reply.body.work_item).toMatchObject({
        id: 'w-create',
        objective: 'Ship the report',
        state: 'open',
        plan_status: 'draft',
        revision: 1,
        is_current: false,
        readiness: 'runnable',
        candidate_class: 'queued_runnable',
        plan_artifact: {
          relative_path: 'work-items/w-create/plan.md',
          byte_size: 15,
          preview: '# Plan\nstep one',
          preview_complete: true,
        },
      });
      expect(reply.body.work_item.plan_artifact.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(readFileSync(reply.body.work_item.plan_artifact.path, 'utf8')).toBe('# Plan\nstep one');
      const plan = await scoped('GET', `${base}/w-create/plan`);
      expect(plan.status).toBe(200);
      expect(plan.headers.get('content-type')).toContain('text/markdown');
      expect(plan.body).toBe('# Plan\nstep one');
    });

    it('generates a work_<32 hex> id when none is given', async () => {
      const reply = await scoped('POST', base, { objective: 'generated' });
      expect(reply.status).toBe(201);
      expect(reply.body.work_item.id).toMatch(/^work_[0-9a-f]{32}$/);
    });

    it.each([
      ['an empty objective', { objective: '   ' }, 'objective'],
      ['a 501-character objective', { objective: 'x'.repeat(501) }, 'objective'],
      [
        '101 todos',
        { objective: 'o', todo_list: Array.from({ length: 101 }, () => ({ text: 't', state: 'pending' })) },
        'todo_list',
      ],
      ['an unknown todo state', { objective: 'o', todo_list: [{ text: 't', state: 'done' }] }, 'todo_list'],
      ['an unknown field', { objective: 'o', priority: 'high' }, 'priority'],
      ['a wrong type', { objective: 42 }, 'objective'],
      ['an id with a path separator', { objective: 'o', work_item_id: '../etc' }, 'work_item_id'],
    ])('refuses %s with 400 naming the field, writing nothing', async (_name, body, field) => {
      const reply = await scoped('POST', base, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('validation_failed');
      expect(JSON.stringify(reply.body.error)).toContain(field);
    });

    it('refuses a duplicate id and an unregistered agent, and leaves no plan file behind', async () => {
      expect((await scoped('POST', base, { work_item_id: 'w-dup', objective: 'o' })).status).toBe(201);
      expect((await scoped('POST', base, { work_item_id: 'w-dup', objective: 'o' })).status).toBe(409);
      const ghost = freshId('ghost');
      const reply = await admin('POST', `/v1/agents/${ghost}/work-items`, {
        work_item_id: 'w-1',
        objective: 'o',
        plan: 'p',
      });
      expect(reply.status).toBe(404);
      expect(existsSync(`${app.dataDir}/agent-home/${ghost}`)).toBe(false);
    });
  });

  describe('focus and blockers', () => {
    it('picks, warns when leaving a runnable focus without a reason, and releases focus on block', async () => {
      await scoped('POST', base, { work_item_id: 'w-f1', objective: 'first' });
      await scoped('POST', base, { work_item_id: 'w-f2', objective: 'second' });
      const first = await scoped('POST', `${base}/w-f1/pick`, {});
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ current: { id: 'w-f1', is_current: true }, warnings: [] });
      const second = await scoped('POST', `${base}/w-f2/pick`, {});
      expect(second.body.previous).toMatchObject({ id: 'w-f1', is_current: false });
      expect(second.body.warnings).toEqual([
        expect.objectContaining({ kind: 'missing_pick_reason_for_runnable_focus_switch' }),
      ]);
      const blocked = await scoped('PATCH', `${base}/w-f2`, { blocked_by: 'waiting for the operator' });
      expect(blocked.status).toBe(200);
      expect(blocked.body).toMatchObject({
        focus_released: true,
        work_item: { blocked_by: 'waiting for the operator', is_current: false, readiness: 'blocked', revision: 2 },
      });
      const cleared = await scoped('PATCH', `${base}/w-f2`, { blocked_by: null });
      expect(cleared.body).toMatchObject({
        focus_released: false,
        work_item: { blocked_by: null, is_current: false, readiness: 'runnable' },
      });
    });

    it('refuses to pick a completed item (422) or an unknown one (404)', async () => {
      await scoped('POST', base, { work_item_id: 'w-done', objective: 'finish' });
      await scoped('POST', `${base}/w-done/complete`, {});
      const completed = await scoped('POST', `${base}/w-done/pick`, { reason: 'look' });
      expect(completed.status).toBe(422);
      expect(completed.body.error.code).toBe('invariant_violated');
      expect((await scoped('POST', `${base}/nope/pick`, {})).status).toBe(404);
      expect((await scoped('POST', `${base}/bad%2Fid/pick`, {})).status).toBe(400);
    });
  });

  describe('completing', () => {
    it('completes with an unfinished-todos warning, then records nothing on a second completion', async () => {
      const todos = [
        { text: 'a', state: 'completed' },
        { text: 'b', state: 'in_progress' },
        { text: 'c', state: 'pending' },
      ];
      await scoped('POST', base, { work_item_id: 'w-c', objective: 'complete me', todo_list: todos });
      await scoped('POST', `${base}/w-c/pick`, {});
      const done = await scoped('POST', `${base}/w-c/complete`, {});
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        completed_transition: true,
        work_item: { state: 'completed', is_current: false },
      });
      expect(done.body.warnings).toEqual([
        expect.objectContaining({
          kind: 'unfinished_todos',
          pending_count: 1,
          in_progress_count: 1,
          sample: [todos[1], todos[2]],
        }),
      ]);
      const again = await scoped('POST', `${base}/w-c/complete`, {});
      expect(again.body).toMatchObject({ completed_transition: false, warnings: [], revision: done.body.revision });
      expect((await scoped('PATCH', `${base}/w-c`, { objective: 'reopen?' })).status).toBe(422);
    });
  });

  describe('idempotency and concurrency', () => {
    it('answers a repeated Idempotency-Key with the first reply and appends nothing', async () => {
      const key = { 'idempotency-key': freshId('key') };
      const first = await scoped('POST', base, { objective: 'once' }, key);
      const second = await scoped('POST', base, { objective: 'once' }, key);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      const next = await scoped('POST', base, { objective: 'later' });
      expect(BigInt(next.body.revision)).toBe(BigInt(first.body.revision) + 1n);
    });

    it('refuses a stale expected_revision with 409 and the current revision', async () => {
      const current = await scoped('POST', base, { objective: 'rev' });
      const stale = await scoped('POST', base, {
        objective: 'stale',
        expected_revision: Number(current.body.revision) - 1,
      });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({
        code: 'conflict',
        details: { current_revision: current.body.revision },
      });
      const fresh = await scoped('POST', base, { objective: 'fresh', expected_revision: current.body.revision });
      expect(fresh.status).toBe(201);
    });
  });

  describe('reads and the plan artifact', () => {
    it('lists with filters in ranking order and reads one item', async () => {
      const agent = freshId('agent');
      await admin('POST', '/v1/agents', { agent_id: agent });
      const items = `/v1/agents/${agent}/work-items`;
      for (const id of ['q-1', 'q-2', 'q-3']) await admin('POST', items, { work_item_id: id, objective: id });
      await admin('PATCH', `${items}/q-2`, { plan_status: 'needs_input' });
      await admin('POST', `${items}/q-3/pick`, {});
      await projected(app);
      expect((await admin('GET', `${items}?filter=queued`)).body).toMatchObject({ total: 1, items: [{ id: 'q-1' }] });
      expect((await admin('GET', `${items}?filter=current`)).body).toMatchObject({ total: 1, items: [{ id: 'q-3' }] });
      expect((await admin('GET', `${items}?filter=waiting_for_operator`)).body).toMatchObject({
        total: 1,
        items: [{ id: 'q-2' }],
      });
      const limited = await admin('GET', `${items}?filter=all&limit=2`);
      expect(limited.body.total).toBe(3);
      expect(limited.body.items).toHaveLength(2);
      expect((await admin('GET', `${items}?filter=nonsense`)).status).toBe(400);
      expect((await admin('GET', `${items}/q-2`)).body).toMatchObject({ id: 'q-2', readiness: 'waiting_for_operator' });
      expect((await admin('GET', `${items}/missing`)).status).toBe(404);
    });

    it('replaces the plan body with PUT and shows the refreshed descriptor', async () => {
      await scoped('POST', base, { work_item_id: 'w-plan', objective: 'plan it' });
      const put = await scoped('PUT', `${base}/w-plan/plan`, '# New plan\n');
      expect(put.status).toBe(200);
      expect(put.body.work_item.plan_artifact).toMatchObject({ byte_size: 11, preview: '# New plan\n' });
      await projected(app);
      const item = await scoped('GET', `${base}/w-plan`);
      expect(item.body.plan_artifact.hash).toBe(put.body.work_item.plan_artifact.hash);
      expect((await scoped('GET', `${base}/w-plan/plan`)).body).toBe('# New plan\n');
    });
  });

  describe('limits', () => {
    it('answers 413 for a body over 1 MiB', async () => {
      const reply = await scoped('POST', base, { objective: 'x'.repeat(1024 * 1024 + 10) });
      expect(reply.status).toBe(413);
      expect(reply.body.error.code).toBe('payload_too_large');
    });
  });
});
