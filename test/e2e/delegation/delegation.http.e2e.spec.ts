import type { TestApp } from '../../support/app';
import { httpClient, projected } from '../../support/http';
import { seedParent, startDelegationApp } from './delegation-suite';

// Issue 17 items 1-3 over HTTP: parent -> private child -> report -> the parent's model turn on
// the delegating item (not the parent's focus by then).

describe('delegation over HTTP', () => {
  let app: TestApp;
  let handedOff: () => Promise<void>;
  let host: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    ({ app, handedOff } = await startDelegationApp());
    await seedParent(app);
    host = httpClient(app, 'tok-parent-0123456789');
  });
  afterAll(() => app.close());

  it('refuses a spawn without a delegating item (work_item_required) and a private child without a message', async () => {
    const admin = httpClient(app, 'tok-admin');
    await admin('POST', '/v1/agents', { agent_id: 'lonely-1' });
    const none = await admin('POST', '/v1/agents/lonely-1/spawn', {
      workspace_mode: 'private_child',
      initial_message: 'x',
    });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'work_item_required', details: { field: 'work_item_id' } });
    const bare = await host('POST', '/v1/agents/parent-1/spawn', { workspace_mode: 'private_child' });
    expect(bare.status).toBe(400);
    const other = await httpClient(app, 'tok-other-01234567')('POST', '/v1/agents/parent-1/spawn', {
      workspace_mode: 'public_named',
    });
    expect(other.status).toBe(403);
  });

  it('hands the work to a private child and brings its report back on the delegating item', async () => {
    const spawned = await host(
      'POST',
      '/v1/agents/parent-1/spawn',
      {
        workspace_mode: 'private_child',
        agent_id: 'child-1',
        initial_message: '  Summarise\nthe logs ',
        preset: 'coder',
      },
      { 'idempotency-key': 'spawn-1' },
    );
    expect(spawned.status).toBe(201);
    expect(spawned.body).toMatchObject({
      workspace_mode: 'private_child',
      child_agent_id: 'child-1',
      delegation: {
        direction: 'child',
        parent_work_item_id: 'w-parent',
        state: 'delegated',
        label: 'Summarise the logs',
      },
      task: { kind: 'child_agent', work_item_id: 'w-parent', status: 'queued' },
    });
    const again = await host(
      'POST',
      '/v1/agents/parent-1/spawn',
      {
        workspace_mode: 'private_child',
        agent_id: 'child-1',
        initial_message: '  Summarise\nthe logs ',
        preset: 'coder',
      },
      { 'idempotency-key': 'spawn-1' },
    );
    expect(again.body.delegation.delegation_id).toBe(spawned.body.delegation.delegation_id);

    // The parent moves on to another item meanwhile.
    expect((await host('POST', '/v1/agents/parent-1/work-items/w-other/pick', {})).status).toBe(200);

    // The parent's token covers the child: the child's host works the delegation.
    const child = (path: string, body?: object) => host('POST', `/v1/agents/child-1${path}`, body ?? {});
    const activation = await child('/activations', {});
    expect(activation.body.decision).toMatchObject({ kind: 'StartModelTurn' });
    expect(activation.body.message).toMatchObject({
      kind: 'internal_followup',
      origin: 'delegation',
      body: 'Summarise\nthe logs',
    });
    const turn = activation.body.turn.turn_id;
    expect((await child('/work-items', { work_item_id: 'w-child', objective: 'Summarise the logs' })).status).toBe(201);
    expect((await child('/work-items/w-child/pick')).status).toBe(200);
    expect((await child(`/turns/${turn}/rounds`, { round_id: 'r-1', text: 'The logs say hello.' })).status).toBe(200);
    expect((await child('/work-items/w-child/complete', { round_id: 'r-1' })).status).toBe(200);
    expect((await child(`/turns/${turn}/rounds/r-1/close`)).status).toBe(200);
    expect((await child(`/turns/${turn}/terminal`, { terminal_kind: 'completed' })).status).toBe(200);
    await handedOff();

    const list = await host('GET', '/v1/agents/parent-1/delegations');
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        direction: 'child',
        child_agent_id: 'child-1',
        child_work_item_id: 'w-child',
        state: 'completed',
        counterpart_state: 'completed',
        result_summary: 'The logs say hello.',
        flagged: false,
      }),
    ]);
    const childSide = await host('GET', '/v1/agents/child-1/delegations');
    expect(childSide.body.items).toEqual([
      expect.objectContaining({ direction: 'parent', parent_agent_id: 'parent-1', state: 'completed' }),
    ]);

    // The result re-enters the parent's model on w-parent, though w-other is the focus now.
    const parentTurn = await host('POST', '/v1/agents/parent-1/activations', {});
    expect(parentTurn.body.decision).toMatchObject({ kind: 'StartModelTurn', reason: 'task_result_for_delegation' });
    expect(parentTurn.body.message).toMatchObject({ kind: 'task_result', work_item_id: 'w-parent' });
    expect(parentTurn.body.message.body).toMatchObject({
      task_kind: 'child_agent',
      status: 'completed',
      detail: 'The logs say hello.',
    });
    expect(parentTurn.body.turn.work_item_id).toBe('w-parent');
    await projected(app);
    const tasks = await host('GET', '/v1/agents/parent-1/tasks');
    expect(tasks.body.items).toEqual([expect.objectContaining({ kind: 'child_agent', status: 'completed' })]);
  });

  it('keeps a token of another agent off the private child, and spawns a public agent without delegation', async () => {
    expect((await httpClient(app, 'tok-other-01234567')('GET', '/v1/agents/child-1/delegations')).status).toBe(403);
    const pub = await host('POST', '/v1/agents/parent-1/spawn', {
      workspace_mode: 'public_named',
      agent_id: 'public-1',
      initial_message: 'hello',
      template: 't',
    });
    expect(pub.status).toBe(201);
    expect(pub.body).toMatchObject({ workspace_mode: 'public_named', delegation: null, task: null });
    // A public agent is independent: the parent's token does not cover it.
    expect((await host('GET', '/v1/agents/public-1/delegations')).status).toBe(403);
  });

  it('cancels the delegation when the parent cancels its child task: the child is stopped', async () => {
    const spawned = await host('POST', '/v1/agents/parent-1/spawn', {
      workspace_mode: 'private_child',
      agent_id: 'child-2',
      initial_message: 'Look around',
      work_item_id: 'w-parent',
    });
    expect(spawned.status).toBe(201);
    const taskId = spawned.body.task.id;
    expect((await host('POST', `/v1/agents/parent-1/tasks/${taskId}/status`, { status: 'cancelled' })).status).toBe(
      200,
    );
    await handedOff();
    const list = await host('GET', '/v1/agents/parent-1/delegations');
    expect(list.body.items.find((d: { child_agent_id: string }) => d.child_agent_id === 'child-2')).toMatchObject({
      state: 'cancelled',
      reason: 'child_stopped',
    });
    const child = await host('GET', '/v1/agents/child-2/delegations');
    expect(child.body.items[0]).toMatchObject({ state: 'cancelled' });
  });

  it('stops the private children when the parent is stopped: their delegations end cancelled', async () => {
    const body = { workspace_mode: 'private_child', agent_id: 'child-3', initial_message: 'Wait here' };
    expect((await host('POST', '/v1/agents/parent-1/spawn', body)).status).toBe(201);
    const admin = httpClient(app, 'tok-admin');
    expect((await admin('POST', '/v1/agents/parent-1/control', { action: 'stop' })).status).toBe(200);
    await handedOff();
    const list = await host('GET', '/v1/agents/child-3/delegations');
    expect(list.body.items).toEqual([expect.objectContaining({ state: 'cancelled', reason: 'child_stopped' })]);
    const parent = await host('GET', '/v1/agents/parent-1/delegations');
    expect(parent.body.items.find((d: { child_agent_id: string }) => d.child_agent_id === 'child-3')).toMatchObject({
      state: 'cancelled',
      counterpart_state: 'cancelled',
    });
  });
});
