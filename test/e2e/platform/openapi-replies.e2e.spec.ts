import { startTestApp, type TestApp } from '../../support/app';
import { projected } from '../../support/http';
import { openApiValidator, type OpenApiValidator } from '../../support/openapi';
import { isolatedDatabaseUrl } from '../../support/postgres';
import { adminActs, hostActs } from './support/openapi-acts';
import { documentedClient } from './support/openapi-client';

/**
 * The reply schemas are true, not just present: a scenario through every route group, each reply
 * checked against the schema /docs-json gives for its route and status (strictly: a field the
 * schema does not list fails), and at the end every success shape of the document was seen.
 */
describe('the OpenAPI document describes the replies the service sends', () => {
  let app: TestApp;
  let document: any;
  let validator: OpenApiValidator;
  let client: ReturnType<typeof documentedClient>;
  const a = { agent_id: 'oa-1' };

  beforeAll(async () => {
    app = await startTestApp({
      tokens: 'tok-admin=*;tok-b=oa-2',
      env: { DATABASE_URL: await isolatedDatabaseUrl('openapi') },
    });
    document = await (await fetch(`${app.baseUrl}/docs-json`)).json();
    validator = openApiValidator(document);
    client = documentedClient(app, validator, 'tok-admin');
  });
  afterAll(() => app?.close());

  it('agents, work items and plans', async () => {
    const { ok, call } = client;
    await ok('POST', '/v1/agents', { body: { agent_id: 'oa-1' }, headers: { 'idempotency-key': 'register-oa-1' } });
    const created = await ok('POST', '/v1/agents/{agent_id}/work-items', {
      params: a,
      body: {
        work_item_id: 'w-1',
        objective: 'ship',
        todo_list: [{ text: 'plan', state: 'in_progress' }],
        plan: '# v1',
      },
    });
    expect(created.revision).toMatch(/^\d+$/);
    await ok('POST', '/v1/agents/{agent_id}/work-items', {
      params: a,
      body: { work_item_id: 'w-2', objective: 'review', plan_status: 'needs_input' },
    });
    const blocked = await ok('PATCH', '/v1/agents/{agent_id}/work-items/{work_item_id}', {
      params: { ...a, work_item_id: 'w-2' },
      body: { blocked_by: 'the operator', recheck_at: '2099-01-01T00:00:00.000Z' },
    });
    expect(blocked.work_item).toMatchObject({ blocked_by: 'the operator', recheck_at: '2099-01-01T00:00:00.000Z' });
    await ok('PATCH', '/v1/agents/{agent_id}/work-items/{work_item_id}', {
      params: { ...a, work_item_id: 'w-2' },
      body: { blocked_by: null, recheck_at: null },
    });
    await ok('POST', '/v1/agents/{agent_id}/work-items/{work_item_id}/pick', {
      params: { ...a, work_item_id: 'w-2' },
      body: { reason: 'look first' },
    });
    const picked = await ok('POST', '/v1/agents/{agent_id}/work-items/{work_item_id}/pick', {
      params: { ...a, work_item_id: 'w-1' },
    });
    expect(picked.previous).toMatchObject({ id: 'w-2' });
    const item = { ...a, work_item_id: 'w-1' };
    await ok('PUT', '/v1/agents/{agent_id}/work-items/{work_item_id}/plan', { params: item, body: '# v2\n' });
    expect(await ok('GET', '/v1/agents/{agent_id}/work-items/{work_item_id}/plan', { params: item })).toBe('# v2\n');
    const versions = await ok('GET', '/v1/agents/{agent_id}/work-items/{work_item_id}/plan/versions', { params: item });
    await ok('GET', '/v1/agents/{agent_id}/work-items/{work_item_id}/plan', {
      params: item,
      query: { version: versions.items[1].hash },
    });
    await projected(app);
    await ok('GET', '/v1/agents/{agent_id}', { params: a });
    await ok('GET', '/v1/agents/{agent_id}/work-items', { params: a });
    await ok('GET', '/v1/agents/{agent_id}/work-items/{work_item_id}', { params: item });
    expect((await call('GET', '/v1/agents/{agent_id}', { params: { agent_id: 'nobody' } })).status).toBe(404);
    expect((await call('POST', '/v1/agents', { body: { agent_id: 'oa-1' } })).status).toBe(409);
    expect((await call('POST', '/v1/agents', { body: { agent_id: 'oa-1' }, token: null })).status).toBe(401);
    expect((await call('GET', '/v1/agents/{agent_id}', { params: a, token: 'tok-b' })).status).toBe(403);
    expect((await call('POST', '/v1/agents', { body: { agent_id: 'oa-1', extra: 1 } })).status).toBe(400);
    const key = { 'idempotency-key': 'k-1' };
    await ok('POST', '/v1/agents/{agent_id}/wake-hints', {
      params: a,
      body: { source: 's', reason: 'r' },
      headers: key,
    });
    const reused = await call('POST', '/v1/agents/{agent_id}/wake-hints', {
      params: a,
      body: { source: 's', reason: 'other' },
      headers: key,
    });
    expect(reused.status).toBe(422);
  });

  it('waits, intents, callbacks, timers and wake hints', async () => {
    const { ok, call } = client;
    const external = await ok('POST', '/v1/agents/{agent_id}/work-items/{work_item_id}/wait', {
      params: { ...a, work_item_id: 'w-2' },
      body: { wake: 'external', reason: 'the CI run', resource: 'ci:42' },
    });
    expect(external.callback_token).toEqual(expect.any(String));
    await ok('POST', '/v1/callbacks/{callback_token}', {
      params: { callback_token: external.callback_token },
      body: { source: 'ci', payload: { green: true }, event_id: 'ci-42' },
      token: null,
    });
    expect(
      (
        await call('POST', '/v1/callbacks/{callback_token}', {
          params: { callback_token: 'nope' },
          body: { source: 'x' },
          token: null,
        })
      ).status,
    ).toBe(404);
    await ok('POST', '/v1/agents/{agent_id}/waits', { params: a, body: { wake: 'operator_input', reason: 'confirm' } });
    const agentWait = await ok('POST', '/v1/agents/{agent_id}/waits', {
      params: a,
      body: { wake: 'external', reason: 'a webhook', resource: 'hook', delivery_mode: 'enqueue_message' },
    });
    const intent = { ...a, intent_id: agentWait.waiting_intent.id };
    await ok('POST', '/v1/agents/{agent_id}/waiting-intents/{intent_id}/trigger', {
      params: intent,
      body: { source: 'hook', payload: 'ping' },
    });
    await ok('DELETE', '/v1/agents/{agent_id}/waiting-intents/{intent_id}', { params: intent, body: { note: 'done' } });
    const late = await call('POST', '/v1/agents/{agent_id}/waiting-intents/{intent_id}/trigger', {
      params: intent,
      body: { source: 'hook' },
    });
    expect(late.status).toBe(409);
    const timer = await ok('POST', '/v1/agents/{agent_id}/timers', {
      params: a,
      body: { duration_ms: 3_600_000, resume_text: 'later' },
    });
    const due = await ok('POST', '/v1/agents/{agent_id}/timers', {
      params: a,
      body: { fire_at: '2000-01-01T00:00:00.000Z' },
    });
    expect(due.warnings).toEqual([expect.objectContaining({ kind: 'timer_already_due' })]);
    await ok('DELETE', '/v1/agents/{agent_id}/timers/{timer_id}', { params: { ...a, timer_id: timer.timer.id } });
    expect((await call('POST', '/v1/agents/{agent_id}/timers', { params: a, body: {} })).status).toBe(400);
    await ok('POST', '/v1/agents/{agent_id}/wake-hints', {
      params: a,
      body: { source: 'cron', reason: 'tick', body: { n: 1 } },
    });
    await projected(app);
    await ok('GET', '/v1/agents/{agent_id}/waiting-intents', { params: a });
    await ok('GET', '/v1/agents/{agent_id}/timers', { params: a });
  });

  it('tasks, messages, control, activations and turns', () => hostActs(app, client, a));

  it('delegation: a private and a public spawn, the delegations list', async () => {
    const { ok } = client;
    await ok('POST', '/v1/agents/{agent_id}/work-items', {
      params: a,
      body: { work_item_id: 'w-dlg', objective: 'delegate' },
    });
    const body = { workspace_mode: 'private_child', initial_message: 'Look into it', work_item_id: 'w-dlg' };
    await ok('POST', '/v1/agents/{agent_id}/spawn', { params: a, body });
    await ok('POST', '/v1/agents/{agent_id}/spawn', { params: a, body: { workspace_mode: 'public_named' } });
    await ok('GET', '/v1/agents/{agent_id}/delegations', { params: a });
  });

  it('scheduler, audit and console reads', async () => {
    const { ok, call, firstFrame } = client;
    await projected(app);
    for (const route of ['state', 'context', 'decisions', 'briefs', 'delivery-summaries', 'events', 'board'])
      await ok('GET', `/v1/agents/{agent_id}/${route}`, { params: a });
    await ok('GET', '/v1/agents/{agent_id}/work-items/{work_item_id}/history', {
      params: { ...a, work_item_id: 'w-1' },
    });
    await ok('GET', '/v1/agents/{agent_id}/work-items/{work_item_id}/why', { params: { ...a, work_item_id: 'w-1' } });
    await ok('GET', '/v1/agents', {});
    const attention = await ok('GET', '/v1/attention', {});
    expect(attention.total).toBeGreaterThan(0);
    await ok('GET', '/v1/stranded', {});
    const frame = await firstFrame('/v1/agents/{agent_id}/events/stream', { params: a });
    validator.checkComponent('AuditEvent', frame.data);
    const change = await firstFrame('/v1/changes', { query: { after: '0' } });
    validator.checkComponent('Change', change.data);
    for (const route of ['state', 'context', 'events', 'board'])
      expect((await call('GET', `/v1/agents/{agent_id}/${route}`, { params: { agent_id: 'nobody' } })).status).toBe(
        404,
      );
    for (const route of [
      'work-items',
      'waiting-intents',
      'timers',
      'tasks',
      'messages',
      'decisions',
      'briefs',
      'delivery-summaries',
    ])
      await call('GET', `/v1/agents/{agent_id}/${route}`, { params: { agent_id: 'nobody' } });
  });

  it('administration and health', () => adminActs(app, client));

  it('saw every success shape of the document, and every route answer', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).map(([method, operation]: [string, any]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    const success = (operation: any) =>
      Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
    const shapes = operations.flatMap(({ operation }) =>
      success(operation).flatMap(([, response]: [string, any]) => {
        const ref = response.content?.['application/json']?.schema?.$ref;
        return ref ? [ref.replace('#/components/schemas/', '')] : [];
      }),
    );
    expect([...new Set(shapes)].filter((shape) => !validator.shapes.has(shape))).toEqual([]);
    const answered = [...validator.checked].map((checked) => checked.replace(/ \d+$/, ''));
    expect(operations.map(({ key }) => key).filter((key) => !answered.includes(key))).toEqual([]);
  });
});
