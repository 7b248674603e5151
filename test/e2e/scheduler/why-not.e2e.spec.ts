import { runtimeGrpcClient, refusalOf } from '../../support/grpc';
import { httpClient, projected } from '../../support/http';
import { openApiValidator, type OpenApiValidator } from '../../support/openapi';
import { schedulerSuite } from './scheduler-suite';

/**
 * Why not (issue 19 item 5) on the real runtime: GET /v1/agents/{a}/work-items/{w}/why and gRPC
 * GetWorkItemWhy answer the domain's why-not view of the item now (docs/api.md, "Why not"): a
 * queued item ranked behind another, a waiting item and the timer that would free it, the item
 * that is next, an archived item; not found for an unknown one; scoped tokens as everywhere.
 * Every HTTP reply is checked against the OpenAPI document.
 */
describe('why not, over HTTP and gRPC', () => {
  const s = schedulerSuite({ scheduler: false, isolated: 'why_not' });
  const WHY = '/v1/agents/{agent_id}/work-items/{work_item_id}/why';
  let validator: OpenApiValidator;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let host: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;

  beforeAll(async () => {
    validator = openApiValidator(await (await fetch(`${s.app.baseUrl}/docs-json`)).json());
    grpc = runtimeGrpcClient(s.app);
    host = grpc.as('tok-host');
  });
  afterAll(() => grpc?.close());

  /** gRPC leaves out what HTTP says is null. */
  const withoutNulls = (value: object) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
  const why = async (item: string) => {
    const reply = await s.get(`/work-items/${item}/why`);
    expect(reply.status).toBe(200);
    validator.check('GET', WHY, 200, reply.headers.get('content-type'), reply.body);
    return reply.body;
  };
  const created = async (id: string) =>
    expect((await s.post('/work-items', { work_item_id: id, objective: id })).status).toBe(201);

  it('ranks a queued item behind the first one, and names the first one next', async () => {
    await created('w-1');
    s.clock.advance(1000);
    await created('w-2');
    const second = await why('w-2');
    expect(second).toMatchObject({
      agent_id: s.agent,
      work_item_id: 'w-2',
      verdict: 'ranked_behind',
      standing: { rung: 7, rule: 'queued_available', rank: 2, of: 2 },
      ranks_before: [{ rung: 7, kind: 'work_item', id: 'w-1' }],
      blockers: [],
    });
    expect(second.next_events.map((e: { event: string }) => e.event)).toContain('WorkItemPicked');
    expect(await why('w-1')).toMatchObject({
      verdict: 'next',
      decision: { kind: 'EmitSystemTick', reason: 'queued_available', work_item_id: 'w-1' },
      next_events: [],
    });
  });

  it('names the timer that would make a waiting item next, the same over gRPC', async () => {
    const fireAt = new Date(s.clock.now().getTime() + 3_600_000).toISOString();
    const wait = await s.post('/work-items/w-2/wait', { wake: 'timer', reason: 'cool down', fire_at: fireAt });
    expect(wait.status).toBe(201);
    const timerId = wait.body.waiting_intent.timer_id;
    expect(typeof timerId).toBe('string');
    const view = await why('w-2');
    expect(view).toMatchObject({ verdict: 'waiting', standing: { rule: 'waits' } });
    expect(view.blockers[0]).toMatchObject({ kind: 'wait', until: fireAt });
    expect(view.next_events[0]).toMatchObject({ event: 'TimerFired', id: timerId, at: fireAt });

    const rpc = await host('GetWorkItemWhy', { agent_id: s.agent, work_item_id: 'w-2' });
    expect(rpc.error).toBeNull();
    expect(rpc.reply).toMatchObject({
      agent_id: s.agent,
      verdict: 'waiting',
      summary: view.summary,
      standing: { rung: view.standing.rung, rule: 'waits' },
      next_events: view.next_events.map(withoutNulls),
    });
    expect(rpc.reply.ladder).toHaveLength(10);
  });

  it('answers not found for an unknown item or agent, and forbidden for an agent the token may not read', async () => {
    const missing = await s.get('/work-items/w-none/why');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', details: { resource: 'work_item', id: 'w-none' } });
    validator.check('GET', WHY, 404, missing.headers.get('content-type'), missing.body);
    const admin = httpClient(s.app, 'tok-admin');
    expect((await admin('POST', '/v1/agents', { agent_id: `${s.agent}-other` })).status).toBe(201);
    expect(
      (await admin('POST', `/v1/agents/${s.agent}-other/work-items`, { work_item_id: 'x', objective: 'x' })).status,
    ).toBe(201);
    const foreign = await s.http('GET', `/v1/agents/${s.agent}-other/work-items/x/why`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('forbidden');
    expect((await admin('GET', '/v1/agents/agent-nobody/work-items/x/why')).status).toBe(404);

    expect(refusalOf(await host('GetWorkItemWhy', { agent_id: s.agent, work_item_id: 'w-none' }))).toMatchObject({
      errorCode: 'not_found',
    });
    expect(refusalOf(await host('GetWorkItemWhy', { agent_id: `${s.agent}-other`, work_item_id: 'x' }))).toMatchObject({
      errorCode: 'forbidden',
    });
  });

  it('answers an archived item as archived (the read model keeps it), over HTTP and gRPC', async () => {
    const done = await s.post('/work-items/w-1/complete', {});
    expect(done.status).toBe(200);
    expect(await why('w-1')).toMatchObject({ verdict: 'completed', standing: null, next_events: [] });
    s.clock.advance(1000);
    const admin = httpClient(s.app, 'tok-admin');
    const archived = await admin('POST', `/v1/admin/agents/${s.agent}/archive`, {
      completed_before: s.clock.now().toISOString(),
    });
    expect(archived.body).toMatchObject({ work_item_ids: ['w-1'] });
    await projected(s.app);
    expect(await why('w-1')).toMatchObject({ verdict: 'archived', item: null, standing: null, blockers: [] });
    const rpc = await host('GetWorkItemWhy', { agent_id: s.agent, work_item_id: 'w-1' });
    expect(rpc.reply).toMatchObject({ verdict: 'archived' });
    expect(rpc.reply.item).toBeNull();
  });
});
