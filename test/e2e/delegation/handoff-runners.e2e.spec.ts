import {
  AgentCommandService,
  DelegationHandoff,
  DelegationHandoffWorkerModule,
  HANDOFF_WORKER,
  type HandoffWorker,
} from '@app/application';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore, type StoredEvent } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { isolatedDatabaseUrl } from '../../support/postgres';
import { DELEGATION_TOKENS } from './delegation-suite';

/*
 * Issue 17 item 3: the hand-off is idempotent and a second runner is harmless. Two processes'
 * worth of runtime (two apps, each with the hand-off process manager) on one store, plus direct
 * concurrent `settle` calls of both: a spawn interrupted between its two appends is finished once,
 * and a child's report is carried to the parent once.
 */
describe('the hand-off with two runners', () => {
  let a: TestApp;
  let b: TestApp;
  let store: EventStore;
  const host = () => httpClient(a, 'tok-parent-0123456789');

  beforeAll(async () => {
    const env = { DATABASE_URL: await isolatedDatabaseUrl('handoff_runners') };
    const modules = [DelegationHandoffWorkerModule];
    a = await startTestApp({ tokens: DELEGATION_TOKENS, modules, env });
    b = await startTestApp({ tokens: DELEGATION_TOKENS, modules, env });
    store = a.runtime.app.get<EventStore>(EVENT_STORE);
    expect((await httpClient(a, 'tok-admin')('POST', '/v1/agents', { agent_id: 'parent-1' })).status).toBe(201);
    const item = await host()('POST', '/v1/agents/parent-1/work-items', { work_item_id: 'w-parent', objective: 'x' });
    expect(item.status).toBe(201);
    expect((await host()('POST', '/v1/agents/parent-1/work-items/w-parent/pick', {})).status).toBe(200);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Both workers have handled everything written so far, and both settle `agentId` three times at once. */
  async function settledTwice(agentId: string): Promise<void> {
    const head = await store.headPosition();
    for (const app of [a, b]) if (head !== null) await app.runtime.app.get<HandoffWorker>(HANDOFF_WORKER).reached(head);
    const handoffs = [a, b].map((app) => app.runtime.app.get(DelegationHandoff, { strict: false }));
    await Promise.all([...handoffs, ...handoffs, ...handoffs].map((handoff) => handoff.settle(agentId)));
  }
  const typesOf = async (agentId: string) =>
    (await store.readStream(agentStream(agentId))).map((event: StoredEvent) => event.type);
  const count = (types: string[], type: string) => types.filter((t) => t === type).length;

  it('given a spawn interrupted after the parent append, both runners finish it with the child created once', async () => {
    const agents = a.runtime.app.get(AgentCommandService, { strict: false });
    const envelope = {
      agentId: 'parent-1',
      caller: { tokenName: 'test', agents: ['parent-1'], admin: false },
      idempotencyKey: 'interrupted-spawn',
    };
    await agents.run(
      envelope,
      {
        type: 'DelegateWorkItem',
        data: {
          delegation_id: 'dlg-interrupted',
          child_agent_id: 'kid-interrupted',
          initial_message: 'Finish what the crash left',
          message_id: 'msg-interrupted',
        },
        meta: agents.meta(envelope),
      },
      () => null,
    );
    await settledTwice('parent-1');
    const child = await typesOf('kid-interrupted');
    expect(child.slice(0, 3)).toEqual(['AgentRegistered', 'AgentSpawned', 'WorkItemDelegationReceived']);
    for (const type of ['AgentRegistered', 'AgentSpawned', 'WorkItemDelegationReceived', 'MessageQueued'])
      expect(count(child, type)).toBe(1);
    const list = await host()('GET', '/v1/agents/parent-1/delegations');
    expect(list.body.items).toEqual([
      expect.objectContaining({ delegation_id: 'dlg-interrupted', counterpart_state: 'delegated', flagged: false }),
    ]);
  });

  it('given a child that completes, both runners carry its report to the parent once', async () => {
    const spawned = await host()('POST', '/v1/agents/parent-1/spawn', {
      workspace_mode: 'private_child',
      agent_id: 'kid-1',
      initial_message: 'Count the logs',
    });
    expect(spawned.status).toBe(201);
    const delegationId = spawned.body.delegation.delegation_id;
    const kid = (path: string, body: object = {}) => host()('POST', `/v1/agents/kid-1${path}`, body);
    const turn = (await kid('/activations')).body.turn.turn_id;
    expect((await kid('/work-items', { work_item_id: 'w-kid', objective: 'Count' })).status).toBe(201);
    expect((await kid('/work-items/w-kid/pick')).status).toBe(200);
    expect((await kid(`/turns/${turn}/rounds`, { round_id: 'r-1', text: '42 logs.' })).status).toBe(200);
    expect((await kid('/work-items/w-kid/complete', { round_id: 'r-1' })).status).toBe(200);
    expect((await kid(`/turns/${turn}/rounds/r-1/close`)).status).toBe(200);
    expect((await kid(`/turns/${turn}/terminal`, { terminal_kind: 'completed' })).status).toBe(200);
    await settledTwice('kid-1');
    await settledTwice('parent-1');

    expect(count(await typesOf('kid-1'), 'WorkItemDelegationReported')).toBe(1);
    const parent = await store.readStream(agentStream('parent-1'));
    const about = (type: string, field: string) =>
      parent.filter((e) => e.type === type && (e.data as Record<string, unknown>)[field] === delegationId);
    expect(about('WorkItemDelegationCompleted', 'delegation_id')).toHaveLength(1);
    expect(about('TaskCompleted', 'task_id')).toHaveLength(1);
    const results = about('MessageQueued', 'task_id');
    expect(results).toHaveLength(1);
    expect(results[0].data).toMatchObject({ kind: 'task_result', work_item_id: 'w-parent' });
    expect(about('WorkItemDelegationCompleted', 'delegation_id')[0].data).toMatchObject({
      state: 'completed',
      result_summary: '42 logs.',
    });
  });
});
