import { AgentHost, call, RuntimeClient, ScriptedModel, type HostEvent } from '@agent-runtime/client';
import type { ModelAdapter, ModelRequest, ModelResponse } from '@agent-runtime/client';
import { startTestApp, type TestApp } from '../support/app';
import { freshId } from '../support/postgres';

/*
 * AgentHost against the real runtime (Fastify, Postgres, long-poll activations): a turn end to
 * end, heartbeats that keep a slow turn alive, a stop that reaches the running turn, and a host
 * that dies mid-turn while another one recovers it after the lease expires.
 */
const TOKEN = 'tok-agent-host';
const agents = {
  turn: freshId('host-turn'),
  heartbeat: freshId('host-beat'),
  stop: freshId('host-stop'),
  crash: freshId('host-crash'),
};

type AuditEvent = { type: string; data: Record<string, any> };

const eventually = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** A model that lets the first `delayed` calls take `ms`, or wait until aborted when `ms` is Infinity. */
class SlowModel implements ModelAdapter {
  calls = 0;
  constructor(
    private readonly inner: ModelAdapter,
    private readonly delayed: number[],
    private readonly ms: number,
  ) {}
  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.calls += 1;
    if (this.delayed.includes(this.calls)) {
      await new Promise<void>((resolve, reject) => {
        const timer = Number.isFinite(this.ms) ? setTimeout(resolve, this.ms) : undefined;
        request.signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), {
          once: true,
        });
      });
    }
    return this.inner.complete(request);
  }
}

describe('AgentHost on the real runtime', () => {
  let app: TestApp;
  let client: RuntimeClient;
  const hosts: AgentHost[] = [];

  const audit = async (agent: string): Promise<AuditEvent[]> =>
    (await client.readEvents(agent, { limit: 1000 })).items as AuditEvent[];
  const runHost = (agent: string, model: ModelAdapter, leaseTtlMs = 60_000) => {
    const events: HostEvent[] = [];
    const host = new AgentHost({ client, model, agents: [agent], leaseTtlMs, waitMs: 10_000 });
    host.on((event) => events.push(event));
    hosts.push(host.start());
    return { host, events, ended: () => events.filter((e) => e.type === 'turn_ended') };
  };
  const prompt = async (agent: string, body: string) => {
    await client.registerAgent({ agent_id: agent });
    return (await client.enqueueMessage(agent, { kind: 'operator_prompt', body })).message;
  };

  beforeAll(async () => {
    app = await startTestApp({ tokens: `${TOKEN}=${Object.values(agents).join('|')}` });
    // Without keep-alive: a connection whose long poll the host aborted would hold app.close()
    // until the server's keep-alive timeout.
    client = new RuntimeClient({ url: app.baseUrl, token: TOKEN, headers: { connection: 'close' } });
  });
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.stop({ turns: 'abandon' })));
    client?.close();
    await app?.close();
  });

  it('runs a turn end to end: rounds and tool calls in the audit, each round before its tools, the report promoted', async () => {
    const agent = agents.turn;
    await prompt(agent, 'Ship the release notes.');
    const model = new ScriptedModel({
      turns: [
        [
          {
            text: 'Planning.',
            tool_calls: [
              call('create_work_item', {
                work_item_id: 'w-notes',
                objective: 'Release notes',
                plan: '# Plan\n- draft\n',
              }),
              call('pick_work_item', { work_item_id: 'w-notes', reason: 'the operator asked' }),
            ],
          },
          {
            tool_calls: [
              call('update_work_item', { work_item_id: 'w-notes', todos: [{ text: 'draft', state: 'completed' }] }),
            ],
          },
          {
            tool_calls: [call('complete_work_item', { work_item_id: 'w-notes', report: 'Notes drafted and shipped.' })],
          },
          { text: 'Done.' },
        ],
      ],
    });
    const { ended, events } = runHost(agent, model);
    await eventually(() => ended().length === 1);
    expect(ended()[0]).toMatchObject({ terminal_kind: 'completed' });
    model.assertDone();
    expect(events.filter((e) => e.type === 'tool_call').every((e) => e.type === 'tool_call' && !e.is_error)).toBe(true);

    const types = (await audit(agent)).map((e) => e.type);
    const rounds = (await audit(agent)).filter((e) => e.type === 'AssistantRoundRecorded');
    expect(rounds.map((e) => e.data.tool_calls.map((c: { name: string }) => c.name))).toEqual([
      ['create_work_item', 'pick_work_item'],
      ['update_work_item'],
      ['complete_work_item'],
      [],
    ]);
    expect(types.indexOf('AssistantRoundRecorded')).toBeLessThan(types.indexOf('WorkItemCreated'));
    expect(types).toContain('WorkItemReportPromoted');
    expect(types.filter((t) => t === 'TurnTerminal')).toHaveLength(1);
    expect(await client.getWorkItem(agent, 'w-notes')).toMatchObject({
      state: 'completed',
      result_summary: 'Notes drafted and shipped.',
    });
  });

  it('heartbeats a turn whose model is slower than the lease: the turn does not expire', async () => {
    const agent = agents.heartbeat;
    await prompt(agent, 'Think hard.');
    const model = new SlowModel(new ScriptedModel([{ text: 'Thought it through.' }]), [1], 3_500);
    const { ended } = runHost(agent, model, 1_500);
    await eventually(() => ended().length === 1);
    expect(ended()[0]).toMatchObject({ terminal_kind: 'completed' });
    const events = await audit(agent);
    expect(events.filter((e) => e.type === 'TurnLeaseRenewed').length).toBeGreaterThanOrEqual(2);
    expect(events.some((e) => e.type === 'RecoveryClassified')).toBe(false);
    expect(events.find((e) => e.type === 'TurnTerminal')?.data).toMatchObject({ terminal_kind: 'completed' });
  });

  it('given an operator stops the agent mid-turn, the host ends the turn at the round boundary, aborted', async () => {
    const agent = agents.stop;
    const message = await prompt(agent, 'Work until told otherwise.');
    const model = new SlowModel(
      new ScriptedModel([{ tool_calls: [call('list_work_items')] }, { text: 'never reached' }], {}),
      [2],
      Number.POSITIVE_INFINITY,
    );
    const { ended } = runHost(agent, model, 1_500);
    await eventually(() => model.calls === 2);
    await client.control(agent, { action: 'stop' });
    await eventually(() => ended().length === 1);
    expect(ended()[0]).toMatchObject({ terminal_kind: 'aborted' });
    const events = await audit(agent);
    expect(events.filter((e) => e.type === 'AssistantRoundRecorded')).toHaveLength(1);
    expect(events.find((e) => e.type === 'TurnTerminal')?.data).toMatchObject({ terminal_kind: 'aborted' });
    expect(events.find((e) => e.type === 'MessageAborted')?.data).toMatchObject({ message_id: message.id });
  });

  it('given a host dies mid-turn, another host gets the replayed message after the lease expires and completes it; nothing twice', async () => {
    const agent = agents.crash;
    const message = await prompt(agent, 'Create the item, then finish it.');
    const first = new SlowModel(
      new ScriptedModel([
        { tool_calls: [call('create_work_item', { work_item_id: 'w-crash', objective: 'Survive a crash' })] },
        { text: 'never reached' },
      ]),
      [2],
      Number.POSITIVE_INFINITY,
    );
    const a = runHost(agent, first, 1_500);
    await eventually(() => first.calls === 2);
    await a.host.stop({ turns: 'abandon' });

    const second = new ScriptedModel([
      ({ user }) => {
        expect(user).toBe('Create the item, then finish it.');
        return { tool_calls: [call('list_work_items', { filter: 'open' })] };
      },
      ({ resultOf }) => {
        const open = resultOf<{ items: Array<{ id: string }> }>('list_work_items').items.map((item) => item.id);
        expect(open).toEqual(['w-crash']);
        return { tool_calls: [call('complete_work_item', { work_item_id: 'w-crash', report: 'Recovered.' })] };
      },
      { text: 'Finished after recovery.' },
    ]);
    const b = runHost(agent, second, 1_500);
    await eventually(() => b.ended().length === 1);
    expect(b.ended()[0]).toMatchObject({ terminal_kind: 'completed' });
    second.assertDone();

    const events = await audit(agent);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect(count('WorkItemCreated')).toBe(1);
    expect(count('WorkItemCompleted')).toBe(1);
    expect(count('MessageQueued')).toBe(1);
    const started = events.filter((e) => e.type === 'TurnStarted');
    expect(started).toHaveLength(2);
    expect(events.find((e) => e.type === 'RecoveryClassified')?.data).toMatchObject({
      cause: 'lease_expired',
      classification: 'requeued',
    });
    expect(events.filter((e) => e.type === 'TurnTerminal').map((e) => e.data.terminal_kind)).toEqual([
      'interrupted',
      'completed',
    ]);
    expect(events.filter((e) => e.type === 'MessageProcessed').map((e) => e.data.message_id)).toEqual([message.id]);
  });
});
