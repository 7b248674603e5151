import { DelegationHandoffWorkerModule } from '@app/application';
import { AgentHost, call, RuntimeClient, ScriptedModel, type HostEvent } from '@agent-runtime/client';
import type { ModelAdapter, ModelRequest, ModelResponse } from '@agent-runtime/client';
import { startTestApp, type TestApp } from '../support/app';
import { freshId, isolatedDatabaseUrl } from '../support/postgres';

/*
 * Issue 17 item 1, the host side, on the real runtime with the hand-off process manager: a
 * scripted model in a parent host spawns a private child with spawn_agent and moves its focus on;
 * a second host serves the child (the parent's token covers it) and completes the delegated item
 * with a report; the parent's next turn reads the report as the child task's result, bound to
 * the delegating item. Over HTTP and gRPC.
 */
const TOKEN = 'tok-host-delegation';
const parents = { http: freshId('host-dlg-http'), grpc: freshId('host-dlg-grpc') };

type AuditEvent = { type: string; data: Record<string, any> };

const eventually = async (check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/**
 * The parent's model: the scheduler's `continue_active` ticks on the item it moved on to get a
 * short answer (how many and when depends on timing); every other turn plays the script.
 */
class ParentModel implements ModelAdapter {
  ticks = 0;
  constructor(readonly script: ScriptedModel) {}
  complete(request: ModelRequest): Promise<ModelResponse> {
    const first = request.messages[0];
    const tick = request.messages.length === 1 && String(first?.content).includes('system_tick');
    if (!tick) return this.script.complete(request);
    this.ticks += 1;
    return Promise.resolve({ text: 'Nothing new on w-next.', tool_calls: [], finish_reason: 'stop' });
  }
}

describe('AgentHost: spawn_agent on the real runtime', () => {
  let app: TestApp;
  const hosts: AgentHost[] = [];
  const clients: RuntimeClient[] = [];

  beforeAll(async () => {
    // The hand-off follows the whole store: a schema of its own, as for a scheduler app.
    app = await startTestApp({
      tokens: `${TOKEN}=${Object.values(parents).join('|')};tok-admin=*`,
      modules: [DelegationHandoffWorkerModule],
      env: { DATABASE_URL: await isolatedDatabaseUrl('host-delegation') },
    });
  });
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.stop({ turns: 'abandon' })));
    for (const client of clients) client.close();
    await app?.close();
  });

  it.each(['http', 'grpc'] as const)(
    'over %s: parent spawns, the child host reports, the parent model reads the result on the delegating item',
    async (transport) => {
      const parent = parents[transport];
      const child = `${parent}-kid`;
      const url = transport === 'http' ? app.baseUrl : `grpc://${app.grpcAddress}`;
      // Without keep-alive: a connection whose long poll a host aborted would hold app.close().
      const client = new RuntimeClient({ url, token: TOKEN, transport, headers: { connection: 'close' } });
      clients.push(client);
      await client.registerAgent({ agent_id: parent });
      await client.enqueueMessage(parent, { kind: 'operator_prompt', body: 'Get the logs summarised.' });

      let spawned: { child_agent_id: string; delegation_id: string; task_id: string } | undefined;
      const script = new ScriptedModel({
        turns: [
          [
            {
              tool_calls: [
                call('create_work_item', { work_item_id: 'w-logs', objective: 'Logs summarised' }),
                call('pick_work_item', { work_item_id: 'w-logs' }),
              ],
            },
            { tool_calls: [call('spawn_agent', { initial_message: 'Summarise the logs', agent_id: child })] },
            ({ resultOf }) => {
              spawned = resultOf('spawn_agent');
              // The parent moves on: the result must come back on w-logs all the same.
              return {
                tool_calls: [
                  call('create_work_item', { work_item_id: 'w-next', objective: 'Next thing' }),
                  call('pick_work_item', { work_item_id: 'w-next' }),
                ],
              };
            },
            { text: 'Delegated the summary.' },
          ],
          [
            ({ user }) => {
              expect(user).toContain('task_result');
              expect(user).toContain('The logs say hello.');
              // A report is promoted for the focused item only (domain contract §4): pick it first.
              return {
                tool_calls: [
                  call('pick_work_item', { work_item_id: 'w-logs' }),
                  call('complete_work_item', { work_item_id: 'w-logs', report: 'Summary in.' }),
                ],
              };
            },
            { text: 'Closed with the child’s summary.' },
          ],
        ],
      });
      const parentModel = new ParentModel(script);
      const childModel = new ScriptedModel({
        turns: [
          [
            ({ user }) => {
              expect(user).toContain('Summarise the logs');
              return {
                tool_calls: [
                  call('create_work_item', { work_item_id: 'w-sum', objective: 'Summarise the logs' }),
                  call('pick_work_item', { work_item_id: 'w-sum' }),
                ],
              };
            },
            { tool_calls: [call('complete_work_item', { work_item_id: 'w-sum', report: 'The logs say hello.' })] },
            { text: 'Reported.' },
          ],
        ],
      });

      const events: HostEvent[] = [];
      const start = (agent: string, model: ModelAdapter) => {
        const host = new AgentHost({ client, model, agents: [agent], waitMs: 5_000, backoffMs: 50 });
        host.on((event) => events.push(event));
        hosts.push(host.start());
        return host;
      };
      type Ended = Extract<HostEvent, { type: 'turn_ended' }>;
      const ended = (agent: string) =>
        events.filter((e): e is Ended => e.type === 'turn_ended' && e.agent_id === agent);
      const parentHost = start(parent, parentModel);
      await eventually(() => spawned !== undefined);
      // A second host serves the child: the parent's token covers its private child.
      start(spawned!.child_agent_id, childModel);
      // The parent's last scripted turn (the one serving the child's result) has ended.
      const resultTurn = () =>
        events.find((e) => e.type === 'turn_opened' && e.agent_id === parent && e.work_item_id === 'w-logs') as
          Extract<HostEvent, { type: 'turn_opened' }> | undefined;
      await eventually(
        () => ended(child).length === 1 && ended(parent).some((e) => e.turn_id === resultTurn()?.turn_id),
        60_000,
      );
      // The parent's host goes on ticking on w-next: stop it, letting a running tick turn finish, so
      // that every model call it counted has its ended turn before the count below.
      await parentHost.stop({ turns: 'finish' });

      script.assertDone();
      childModel.assertDone();
      expect(spawned).toMatchObject({ child_agent_id: child, task_id: spawned!.delegation_id });
      expect(events.filter((e) => e.type === 'tool_call' && e.is_error)).toEqual([]);
      const terminals = [...ended(parent), ...ended(child)].map((e) => e.terminal_kind);
      expect(terminals).toEqual(terminals.map(() => 'completed'));
      expect(ended(parent)).toHaveLength(2 + parentModel.ticks);

      const delegations = await client.listDelegations(parent);
      expect(delegations.items).toEqual([
        expect.objectContaining({
          delegation_id: spawned!.delegation_id,
          direction: 'child',
          child_agent_id: child,
          parent_work_item_id: 'w-logs',
          child_work_item_id: 'w-sum',
          state: 'completed',
          result_summary: 'The logs say hello.',
        }),
      ]);
      const audit = (await client.readEvents(parent, { limit: 1000 })).items as AuditEvent[];
      const results = audit.filter((e) => e.type === 'MessageQueued' && e.data.task_id === spawned!.delegation_id);
      expect(results).toHaveLength(1);
      expect(results[0].data).toMatchObject({ kind: 'task_result', work_item_id: 'w-logs' });
      expect(await client.getWorkItem(parent, 'w-logs')).toMatchObject({
        state: 'completed',
        result_summary: 'Summary in.',
      });
    },
    90_000,
  );
});
