import { startTestApp, type TestApp } from '../support/app';
import { httpClient, projected } from '../support/http';
import { freshId } from '../support/postgres';

type Http = ReturnType<typeof httpClient>;

/** The console's cross-agent reads: GET /v1/agents, /v1/attention, an agent's board and a work item's history. */
describe('the console read routes', () => {
  const mine = freshId('agent');
  const second = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let scoped: Http;
  let admin: Http;
  let outsider: Http;
  let anonymous: Http;
  const post = async (http: Http, path: string, body: object) => {
    const reply = await http('POST', path, body);
    expect(reply.status).toBeLessThan(300);
    return reply.body;
  };

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}|${second};tok-other=${other}` });
    scoped = httpClient(app, 'tok-mine');
    admin = httpClient(app, 'tok-admin');
    outsider = httpClient(app, 'tok-other');
    anonymous = httpClient(app);
    for (const agent of [mine, second]) await post(scoped, '/v1/agents', { agent_id: agent });
    await post(outsider, '/v1/agents', { agent_id: other });
    const base = `/v1/agents/${mine}`;
    // The oldest operator wait first, then a plan that needs input, then items that do not wait for anyone.
    await post(scoped, `${base}/work-items`, { work_item_id: 'w-ask', objective: 'Ask which region to deploy to' });
    await post(scoped, `${base}/work-items/w-ask/wait`, { wake: 'operator_input', reason: 'which region?' });
    await post(scoped, `/v1/agents/${second}/work-items`, {
      work_item_id: 'w-input',
      objective: 'Draft the plan',
      plan_status: 'needs_input',
    });
    await post(scoped, `${base}/work-items`, {
      work_item_id: 'w-now',
      objective: 'Fix the login bug',
      plan: '# Plan\n1. reproduce\n2. fix',
      todo_list: [
        { text: 'reproduce', state: 'completed' },
        { text: 'fix', state: 'in_progress' },
      ],
    });
    await post(scoped, `${base}/work-items/w-now/pick`, { reason: 'the release waits on it' });
    await post(scoped, `${base}/work-items`, { work_item_id: 'w-queued', objective: 'Write the notes' });
    await post(scoped, `${base}/work-items`, { work_item_id: 'w-blocked', objective: 'Deploy' });
    await scoped('PATCH', `${base}/work-items/w-blocked`, { blocked_by: 'QA sign-off' });
    await post(scoped, `${base}/work-items`, { work_item_id: 'w-done', objective: 'Tag the release' });
    await post(scoped, `${base}/work-items/w-done/complete`, {});
    await post(outsider, `/v1/agents/${other}/work-items`, {
      work_item_id: 'w-theirs',
      objective: 'Not yours',
      plan_status: 'needs_input',
    });
    await projected(app);
  });
  afterAll(() => app?.close());

  describe('GET /v1/agents', () => {
    it('lists only the agents the token names, by id, with posture, focus and counts per candidate class', async () => {
      const reply = await scoped('GET', '/v1/agents');
      expect(reply.status).toBe(200);
      expect(reply.body.items.map((a: any) => a.agent_id)).toEqual([mine, second].sort());
      expect(reply.body.total).toBe(2);
      const agent = reply.body.items.find((a: any) => a.agent_id === mine);
      expect(agent.current_work_item).toMatchObject({
        id: 'w-now',
        objective: 'Fix the login bug',
        current_todo: { text: 'fix', state: 'in_progress' },
      });
      expect(agent.candidate_counts).toEqual({
        current_runnable: 1,
        triggered_blocked: 0,
        queued_runnable: 1,
        waiting_for_operator: 1,
        blocked: 1,
        completed_recent: 1,
      });
      expect(agent).toHaveProperty('last_decision');
      expect(agent).toHaveProperty('posture');
    });

    it('lists every agent for an admin token, and nothing without a token', async () => {
      const ids = (await admin('GET', '/v1/agents?limit=500')).body.items.map((a: any) => a.agent_id);
      expect(ids).toEqual(expect.arrayContaining([mine, second, other]));
      expect((await anonymous('GET', '/v1/agents')).status).toBe(401);
      expect((await scoped('GET', '/v1/agents?limit=x')).status).toBe(400);
      expect((await scoped('GET', '/v1/agents?token=1')).status).toBe(400);
    });
  });

  describe('GET /v1/attention', () => {
    it("lists the token's items waiting for an operator across agents, oldest wait first, with what they ask", async () => {
      const reply = await scoped('GET', '/v1/attention');
      expect(reply.status).toBe(200);
      expect(reply.body.items.map((e: any) => [e.agent_id, e.work_item.id])).toEqual([
        [mine, 'w-ask'],
        [second, 'w-input'],
      ]);
      const [ask, input] = reply.body.items;
      expect(ask).toMatchObject({
        reasons: ['operator_wait'],
        operator_waits: [{ reason: 'which region?', trigger_count: 0 }],
      });
      expect(input).toMatchObject({ reasons: ['needs_input'], operator_waits: [] });
      expect(Date.parse(ask.waiting_since)).toBeLessThanOrEqual(Date.parse(input.waiting_since));
    });

    it("never shows another token's agents", async () => {
      const ids = (await outsider('GET', '/v1/attention')).body.items.map((e: any) => e.work_item.id);
      expect(ids).toEqual(['w-theirs']);
      expect((await anonymous('GET', '/v1/attention')).status).toBe(401);
    });
  });

  describe('GET /v1/agents/{a}/board', () => {
    it('has the candidate classes in scheduler order, each with its items', async () => {
      const reply = await scoped('GET', `/v1/agents/${mine}/board`);
      expect(reply.status).toBe(200);
      expect(reply.body.columns.map((c: any) => [c.candidate_class, c.items.map((i: any) => i.id)])).toEqual([
        ['current_runnable', ['w-now']],
        ['triggered_blocked', []],
        ['queued_runnable', ['w-queued']],
        ['waiting_for_operator', ['w-ask']],
        ['blocked', ['w-blocked']],
        ['completed_recent', ['w-done']],
      ]);
    });

    it('is refused for an agent the token does not name', async () => {
      expect((await outsider('GET', `/v1/agents/${mine}/board`)).status).toBe(403);
      expect((await admin('GET', '/v1/agents/no-such-agent/board')).status).toBe(404);
    });
  });

  describe('GET /v1/agents/{a}/work-items/{w}/history', () => {
    it("has every event about the item, oldest first, with who caused it, and none of other items'", async () => {
      const reply = await scoped('GET', `/v1/agents/${mine}/work-items/w-ask/history`);
      expect(reply.status).toBe(200);
      const types = reply.body.items.map((e: any) => e.type);
      expect(types[0]).toBe('WorkItemCreated');
      expect(types.at(-1)).toBe('WaitingIntentCreated');
      expect(reply.body.total).toBe(types.length);
      // Who caused it: the token's printable name (token-<n> by its place in RUNTIME_API_TOKENS), never the secret.
      expect(new Set(reply.body.items.map((e: any) => e.metadata.actor))).toEqual(new Set(['token-2']));
      const now = (await scoped('GET', `/v1/agents/${mine}/work-items/w-now/history`)).body.items.map(
        (e: any) => e.type,
      );
      expect(now).toEqual(expect.arrayContaining(['WorkItemCreated', 'WorkItemPicked']));
      expect(now).not.toContain('WaitingIntentCreated');
    });

    it('keeps the newest events under a limit and answers 404 for an unknown item', async () => {
      const whole = (await scoped('GET', `/v1/agents/${mine}/work-items/w-ask/history`)).body;
      const reply = await scoped('GET', `/v1/agents/${mine}/work-items/w-ask/history?limit=1`);
      expect(whole.total).toBeGreaterThan(1);
      expect(reply.body).toEqual({ total: whole.total, items: [whole.items.at(-1)] });
      expect((await scoped('GET', `/v1/agents/${mine}/work-items/w-none/history`)).status).toBe(404);
    });
  });
});
