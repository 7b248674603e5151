import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../../support/app';
import { agentsProjected, runtimeGrpcClient } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';

/** HTTP's JSON with every null dropped: what the gRPC reply holds (absent field = null). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== null)
      .map(([key, inner]) => [key, withoutNulls(inner)]),
  );
}

/** proto-loader marks a present `optional` field with a virtual `_<field>` key: not part of the data. */
function withoutPresenceMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPresenceMarks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('_'))
      .map(([key, inner]) => [key, withoutPresenceMarks(inner)]),
  );
}

describe('agents and work items over gRPC', () => {
  const mine = freshId('agent');
  let app: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let scoped: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let admin: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let http: ReturnType<typeof httpClient>;

  /** A created item's id, failing loudly on a refusal. */
  async function create(request: object): Promise<any> {
    const result = await scoped('CreateWorkItem', { agent_id: mine, ...request });
    expect(result.error).toBeNull();
    return result.reply;
  }

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}` });
    grpc = runtimeGrpcClient(app);
    scoped = grpc.as('tok-mine');
    admin = grpc.as('tok-admin');
    http = httpClient(app, 'tok-admin');
    expect((await scoped('RegisterAgent', { agent_id: mine })).error).toBeNull();
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  describe('agents', () => {
    it('registers an agent: its summary, stream revision "0" and no warnings', async () => {
      const id = freshId('agent');
      const { error, reply } = await admin('RegisterAgent', { agent_id: id });
      expect(error).toBeNull();
      expect(reply).toMatchObject({
        agent: { agent_id: id, posture: 'awake_idle', work_item_counts: { all: 0, open: 0, current: 0 } },
        revision: '0',
        warnings: [],
      });
      expect(reply.agent.current_work_item_id).toBeUndefined();
      expect(reply.agent.revision).toBeUndefined();
    });

    it('answers GetAgent with posture, focus, counts and revision, as HTTP does', async () => {
      const id = freshId('agent');
      await admin('RegisterAgent', { agent_id: id });
      await admin('CreateWorkItem', { agent_id: id, work_item_id: 'w-1', objective: 'one' });
      await admin('PickWorkItem', { agent_id: id, work_item_id: 'w-1' });
      await agentsProjected(app, id);
      const { error, reply } = await admin('GetAgent', { agent_id: id });
      expect(error).toBeNull();
      expect(reply).toMatchObject({
        agent_id: id,
        current_work_item_id: 'w-1',
        revision: '2',
        work_item_counts: { all: 1, current: 1, open: 1 },
      });
      expect(withoutPresenceMarks(reply)).toEqual(withoutNulls((await http('GET', `/v1/agents/${id}`)).body));
    });
  });

  describe('creating', () => {
    it('creates an open draft item with its plan file seeded, not focused', async () => {
      const reply = await create({
        work_item_id: 'w-create',
        objective: '  Ship the report  ',
        plan: '# Plan\nstep one',
      });
      expect(reply.warnings).toEqual([]);
      expect(reply.revision).toMatch(/^\d+$/);
      expect(reply.work_item).toMatchObject({
        id: 'w-create',
        agent_id: mine,
        objective: 'Ship the report',
        state: 'open',
        plan_status: 'draft',
        revision: 1,
        is_current: false,
        readiness: 'runnable',
        scheduling_state: 'runnable',
        candidate_class: 'queued_runnable',
        todo_list: [],
        waiting_intents: [],
        current_todo: null,
        completion_report: null,
        plan_artifact: {
          relative_path: 'work-items/w-create/plan.md',
          byte_size: 15,
          preview: '# Plan\nstep one',
          preview_complete: true,
        },
      });
      expect(reply.work_item.blocked_by).toBeUndefined();
      expect(reply.work_item.completed_at).toBeUndefined();
      expect(readFileSync(reply.work_item.plan_artifact.path, 'utf8')).toBe('# Plan\nstep one');
      const plan = await scoped('GetPlan', { agent_id: mine, work_item_id: 'w-create' });
      expect(plan).toEqual({ error: null, reply: { body: '# Plan\nstep one' } });
    });

    it('generates a work_<32 hex> id when none is given, and takes a todo list', async () => {
      const todos = [
        { text: 'a', state: 'completed' },
        { text: 'b', state: 'in_progress' },
      ];
      const reply = await create({ objective: 'generated', plan_status: 'ready', todo_list: todos });
      expect(reply.work_item).toMatchObject({ plan_status: 'ready', todo_list: todos, current_todo: todos[1] });
      expect(reply.work_item.id).toMatch(/^work_[0-9a-f]{32}$/);
    });
  });

  describe('updating', () => {
    it('blocks (releasing focus), then clears the blocker with clear_blocked_by; absent fields stay', async () => {
      await create({ work_item_id: 'w-block', objective: 'block me', plan_status: 'ready' });
      await scoped('PickWorkItem', { agent_id: mine, work_item_id: 'w-block', reason: 'start' });
      const blocked = await scoped('UpdateWorkItem', {
        agent_id: mine,
        work_item_id: 'w-block',
        blocked_by: 'waiting for the operator',
      });
      expect(blocked.error).toBeNull();
      expect(blocked.reply).toMatchObject({
        focus_released: true,
        warnings: [],
        work_item: {
          blocked_by: 'waiting for the operator',
          is_current: false,
          readiness: 'blocked',
          plan_status: 'ready',
          objective: 'block me',
        },
      });
      const untouched = await scoped('UpdateWorkItem', {
        agent_id: mine,
        work_item_id: 'w-block',
        objective: 'renamed',
      });
      expect(untouched.reply.work_item).toMatchObject({ objective: 'renamed', blocked_by: 'waiting for the operator' });
      const cleared = await scoped('UpdateWorkItem', {
        agent_id: mine,
        work_item_id: 'w-block',
        clear_blocked_by: true,
      });
      expect(cleared.reply).toMatchObject({
        focus_released: false,
        work_item: { readiness: 'runnable', objective: 'renamed' },
      });
      expect(cleared.reply.work_item.blocked_by).toBeUndefined();
      expect(BigInt(cleared.reply.revision)).toBe(BigInt(blocked.reply.revision) + 2n);
    });

    it('replaces the todo list, keeps it when absent, empties it with clear_todo_list', async () => {
      await create({ work_item_id: 'w-todos', objective: 'todos', todo_list: [{ text: 'old', state: 'pending' }] });
      const todos = [
        { text: 'x', state: 'completed' },
        { text: 'y', state: 'pending' },
      ];
      const replaced = await scoped('UpdateWorkItem', { agent_id: mine, work_item_id: 'w-todos', todo_list: todos });
      expect(replaced.reply.work_item).toMatchObject({ todo_list: todos, current_todo: todos[1] });
      const kept = await scoped('UpdateWorkItem', { agent_id: mine, work_item_id: 'w-todos', plan_status: 'ready' });
      expect(kept.reply.work_item).toMatchObject({ todo_list: todos, plan_status: 'ready' });
      const emptied = await scoped('UpdateWorkItem', {
        agent_id: mine,
        work_item_id: 'w-todos',
        clear_todo_list: true,
      });
      expect(emptied.reply.work_item).toMatchObject({ todo_list: [], current_todo: null });
    });

    it('sets recheck_at and clears it with clear_recheck_at', async () => {
      await create({ work_item_id: 'w-recheck', objective: 'recheck' });
      const set = await scoped('UpdateWorkItem', {
        agent_id: mine,
        work_item_id: 'w-recheck',
        blocked_by: 'vendor',
        recheck_at: '2030-01-01T00:00:00.000Z',
      });
      expect(set.error).toBeNull();
      expect(set.reply.work_item.recheck_at).toBe('2030-01-01T00:00:00.000Z');
      const cleared = await scoped('UpdateWorkItem', {
        agent_id: mine,
        work_item_id: 'w-recheck',
        clear_recheck_at: true,
      });
      expect(cleared.reply.work_item.recheck_at).toBeUndefined();
      expect(cleared.reply.work_item.blocked_by).toBe('vendor');
    });
  });

  describe('focus and completion', () => {
    it('picks, and warns when leaving a runnable focus without a reason', async () => {
      await create({ work_item_id: 'w-f1', objective: 'first' });
      await create({ work_item_id: 'w-f2', objective: 'second' });
      const first = await scoped('PickWorkItem', { agent_id: mine, work_item_id: 'w-f1', reason: 'begin' });
      expect(first.reply).toMatchObject({ current: { id: 'w-f1', is_current: true }, warnings: [] });
      expect(first.reply.binding_note).toContain('w-f1');
      const second = await scoped('PickWorkItem', { agent_id: mine, work_item_id: 'w-f2' });
      expect(second.reply).toMatchObject({
        current: { id: 'w-f2', is_current: true },
        previous: { id: 'w-f1', is_current: false },
      });
      expect(second.reply.warnings).toEqual([
        expect.objectContaining({ kind: 'missing_pick_reason_for_runnable_focus_switch' }),
      ]);
    });

    it('completes with the unfinished-todos warning (extras in details_json), then records nothing the second time', async () => {
      const todos = [
        { text: 'a', state: 'completed' },
        { text: 'b', state: 'in_progress' },
        { text: 'c', state: 'pending' },
      ];
      await create({ work_item_id: 'w-c', objective: 'complete me', todo_list: todos });
      await scoped('PickWorkItem', { agent_id: mine, work_item_id: 'w-c', reason: 'finish it' });
      const done = await scoped('CompleteWorkItem', { agent_id: mine, work_item_id: 'w-c' });
      expect(done.error).toBeNull();
      expect(done.reply).toMatchObject({
        completed_transition: true,
        work_item: { state: 'completed', is_current: false, readiness: 'completed', completion_report: null },
      });
      expect(done.reply.work_item.completed_at).toEqual(expect.any(String));
      expect(done.reply.warnings).toEqual([
        {
          kind: 'unfinished_todos',
          message: expect.any(String),
          details_json: expect.any(String),
          _details_json: 'details_json',
        },
      ]);
      expect(JSON.parse(done.reply.warnings[0].details_json)).toEqual({
        pending_count: 1,
        in_progress_count: 1,
        sample: [todos[1], todos[2]],
      });
      const again = await scoped('CompleteWorkItem', { agent_id: mine, work_item_id: 'w-c', round_id: 'r-1' });
      expect(again.reply).toMatchObject({ completed_transition: false, warnings: [], revision: done.reply.revision });
    });
  });

  describe('reads and the plan artifact', () => {
    it('lists with filters in ranking order and a limit, and reads one item', async () => {
      const agent = freshId('agent');
      await admin('RegisterAgent', { agent_id: agent });
      for (const id of ['q-1', 'q-2', 'q-3'])
        await admin('CreateWorkItem', { agent_id: agent, work_item_id: id, objective: id });
      await admin('UpdateWorkItem', { agent_id: agent, work_item_id: 'q-2', plan_status: 'needs_input' });
      await admin('PickWorkItem', { agent_id: agent, work_item_id: 'q-3' });
      await agentsProjected(app, agent);
      const list = (filter?: string, limit?: number) => admin('ListWorkItems', { agent_id: agent, filter, limit });
      expect((await list('queued')).reply).toMatchObject({ total: 1, items: [{ id: 'q-1' }] });
      expect((await list('current')).reply).toMatchObject({ total: 1, items: [{ id: 'q-3' }] });
      expect((await list('waiting_for_operator')).reply).toMatchObject({ total: 1, items: [{ id: 'q-2' }] });
      const limited = await list(undefined, 2);
      expect(limited.reply.total).toBe(3);
      const limitedHttp = await http('GET', `/v1/agents/${agent}/work-items?limit=2`);
      expect(limited.reply.items.map((item: any) => item.id)).toEqual(
        limitedHttp.body.items.map((item: any) => item.id),
      );
      const one = await admin('GetWorkItem', { agent_id: agent, work_item_id: 'q-2' });
      expect(one.reply).toMatchObject({ id: 'q-2', readiness: 'waiting_for_operator', plan_status: 'needs_input' });
    });

    it('shows the same work item view as HTTP, nulls as absent fields', async () => {
      await create({
        work_item_id: 'w-same',
        objective: 'compare',
        todo_list: [{ text: 't', state: 'in_progress' }],
        plan: 'p',
      });
      await agentsProjected(app, mine);
      const viaGrpc = await scoped('GetWorkItem', { agent_id: mine, work_item_id: 'w-same' });
      const viaHttp = await http('GET', `/v1/agents/${mine}/work-items/w-same`);
      expect(viaHttp.status).toBe(200);
      expect(withoutNulls(withoutPresenceMarks(viaGrpc.reply))).toEqual(withoutNulls(viaHttp.body));
      const listed = await scoped('ListWorkItems', { agent_id: mine, filter: 'all', limit: 100 });
      const listedHttp = await http('GET', `/v1/agents/${mine}/work-items?filter=all&limit=100`);
      expect(withoutNulls(withoutPresenceMarks(listed.reply))).toEqual(withoutNulls(listedHttp.body));
    });

    it('replaces the plan body with ReplacePlan and shows the refreshed descriptor', async () => {
      await create({ work_item_id: 'w-plan', objective: 'plan it' });
      const put = await scoped('ReplacePlan', { agent_id: mine, work_item_id: 'w-plan', body: '# New plan\n' });
      expect(put.error).toBeNull();
      expect(put.reply).toMatchObject({
        focus_released: false,
        warnings: [],
        work_item: { plan_artifact: { byte_size: 11, preview: '# New plan\n' } },
      });
      await agentsProjected(app, mine);
      const item = await scoped('GetWorkItem', { agent_id: mine, work_item_id: 'w-plan' });
      expect(item.reply.plan_artifact.hash).toBe(put.reply.work_item.plan_artifact.hash);
      expect((await scoped('GetPlan', { agent_id: mine, work_item_id: 'w-plan' })).reply).toEqual({
        body: '# New plan\n',
      });
      expect((await http('GET', `/v1/agents/${mine}/work-items/w-plan/plan`)).body).toBe('# New plan\n');
    });
  });
});
