import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, projected } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';

type Http = ReturnType<typeof httpClient>;

/**
 * GET /v1/stranded on the real runtime (issue 19 item 4, ADR 0036): no scheduler runs, so a new
 * runnable item is never decided on (runnable without a decision, delay 0 here), and a blocked
 * item with no wait nor recheck is stranded at once; a scoped token sees its own agents only.
 */
describe('GET /v1/stranded', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let scoped: Http;
  let admin: Http;
  let outsider: Http;
  let lastPosition = '0';
  const post = async (http: Http, path: string, body: object) => {
    const reply = await http(path.endsWith('w-blocked') ? 'PATCH' : 'POST', path, body);
    if (reply.status >= 300) throw new Error(`${path}: ${JSON.stringify(reply.body)}`);
    lastPosition = reply.body.position ?? lastPosition;
    return reply.body;
  };
  const ofAgent = (items: any[], agent: string) => items.filter((e) => e.agent_id === agent);

  beforeAll(async () => {
    app = await startTestApp({
      tokens: `tok-admin=*;tok-mine=${mine};tok-other=${other}`,
      // A schema of its own: the admin's list and its total cover every agent of the store, and
      // suites beside it on the shared schema add stranded work between two reads.
      env: {
        DATABASE_URL: await isolatedDatabaseUrl('stranded'),
        STRANDED_RUNNABLE_AFTER_MS: '0',
        STRANDED_OVERDUE_GRACE_MS: '3600000',
      },
    });
    scoped = httpClient(app, 'tok-mine');
    admin = httpClient(app, 'tok-admin');
    outsider = httpClient(app, 'tok-other');
    await post(scoped, '/v1/agents', { agent_id: mine });
    await post(outsider, '/v1/agents', { agent_id: other });
    await post(scoped, `/v1/agents/${mine}/work-items`, { work_item_id: 'w-blocked', objective: 'Deploy' });
    await post(scoped, `/v1/agents/${mine}/work-items/w-blocked`, { blocked_by: 'QA sign-off' });
    await post(outsider, `/v1/agents/${other}/work-items`, { work_item_id: 'w-new', objective: 'Write notes' });
    await post(outsider, `/v1/agents/${other}/timers`, { fire_at: new Date(Date.now() + 600_000).toISOString() });
  });
  afterAll(() => app?.close());

  it("answers a scoped token with its own agents' stranded work only, each with evidence, stranded_at and age", async () => {
    const reply = await scoped('GET', `/v1/stranded?min_position=${lastPosition}`);
    expect(reply.status).toBe(200);
    expect(reply.body.items.every((e: any) => e.agent_id === mine)).toBe(true);
    const blocked = reply.body.items.find((e: any) => e.kind === 'blocked_without_wait');
    expect(blocked).toMatchObject({
      agent_id: mine,
      subject: { work_item_id: 'w-blocked', intent_id: null, task_id: null },
      evidence: ['blocked_by:QA sign-off', 'recheck_at:none'],
    });
    expect(Date.parse(blocked.stranded_at)).toBe(Date.parse(blocked.since));
    expect(blocked.age_ms).toBeGreaterThanOrEqual(0);
    expect(reply.body.total).toBe(reply.body.items.length);
  });

  it('shows an admin every agent, filters by kind, pages with total, and applies the delays (a timer not yet due is not stranded)', async () => {
    await projected(app);
    const all = (await admin('GET', '/v1/stranded?limit=500')).body;
    expect(ofAgent(all.items, other).map((e: any) => e.kind)).toEqual(['runnable_without_decision']);
    expect(ofAgent(all.items, other)[0]).toMatchObject({
      subject: { work_item_id: 'w-new' },
      evidence: expect.arrayContaining(['decision:EmitSystemTick', 'last_decision:none']),
    });
    expect(
      ofAgent(all.items, mine)
        .map((e: any) => e.kind)
        .sort(),
    ).toEqual(['blocked_without_wait']);
    const kind = (await admin('GET', '/v1/stranded?kind=blocked_without_wait&limit=500')).body;
    expect(kind.items.every((e: any) => e.kind === 'blocked_without_wait')).toBe(true);
    expect(ofAgent(kind.items, mine)).toHaveLength(1);
    const one = (await admin('GET', '/v1/stranded?limit=1')).body;
    expect(one.items).toHaveLength(1);
    expect(one.total).toBe(all.total);
    expect(ofAgent((await outsider('GET', '/v1/stranded')).body.items, mine)).toEqual([]);
  });

  it('counts the stranded work by kind in GET /metrics (agent_runtime_stranded_items)', async () => {
    await projected(app);
    const reply = await admin('GET', '/metrics');
    expect(reply.status).toBe(200);
    const gauge = (kind: string) =>
      Number(new RegExp(`^agent_runtime_stranded_items\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(reply.body)?.[1]);
    expect(gauge('blocked_without_wait')).toBeGreaterThanOrEqual(1);
    expect(gauge('runnable_without_decision')).toBeGreaterThanOrEqual(1);
    expect(gauge('asleep_with_queued_messages')).toBe(0);
  });

  it('refuses an unknown kind, a limit that is not a number, and a missing token', async () => {
    expect((await scoped('GET', '/v1/stranded?kind=lost')).status).toBe(400);
    expect((await scoped('GET', '/v1/stranded?limit=x')).status).toBe(400);
    expect((await httpClient(app)('GET', '/v1/stranded')).status).toBe(401);
  });
});
