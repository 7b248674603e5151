import { RuntimeNetworkError } from '../errors';
import { AgentHost } from './agent-host';
import type { HostEvent, StopMode } from './host-types';
import { call, ScriptedModel } from './model';
import type { ModelAdapter, ModelRequest } from './model/model-adapter';
import { FakeClient, refusal } from './testing/fake-client';

/* The host loop's logic against a faked client: what it sends, in which order, and when. */

const eventually = async (check: () => boolean, ms = 3_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** A model that waits (a slow provider) until the request's signal aborts. */
class HangingModel implements ModelAdapter {
  readonly requests: ModelRequest[] = [];
  complete(request: ModelRequest): Promise<never> {
    this.requests.push(request);
    return new Promise((_, reject) => {
      request.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }
}

function host(fake: FakeClient, model: ModelAdapter, options: { leaseTtlMs?: number } = {}) {
  const events: HostEvent[] = [];
  const agentHost = new AgentHost({
    client: fake.asClient(),
    model,
    agents: ['a-1'],
    backoffMs: 5,
    maxBackoffMs: 20,
    leaseTtlMs: options.leaseTtlMs ?? 60_000,
    onEvent: (event) => events.push(event),
  });
  return { agentHost, events, ended: () => events.filter((e) => e.type === 'turn_ended') };
}

describe('AgentHost (faked client)', () => {
  it('given a turn, records each round with its tool calls before running them, closes it, and posts completed', async () => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1', 'Plan the release.'));
    const model = new ScriptedModel({
      turns: [
        [
          { text: 'Creating.', tool_calls: [call('create_work_item', { work_item_id: 'w-1', objective: 'Release' })] },
          { tool_calls: [call('complete_work_item', { work_item_id: 'w-1', report: 'Released v1.' })] },
          { text: 'All done.' },
        ],
      ],
    });
    const { agentHost, ended } = host(fake, model);
    agentHost.start();
    await eventually(() => ended().length === 1);
    await agentHost.stop();

    const order = fake.calls.map((c) => c.method).filter((m) => m !== 'activate' && m !== 'heartbeatTurn');
    expect(order).toEqual([
      'recordRound',
      'createWorkItem',
      'closeRound',
      'recordRound',
      'completeWorkItem',
      'closeRound',
      'recordRound',
      'postTerminal',
    ]);
    const rounds = fake.of('recordRound').map((c) => c.args[2]);
    expect(rounds[0]).toEqual({
      round_id: 't-1.r1',
      text: 'Creating.',
      tool_calls: [{ tool_call_id: 'call_1_1_0', name: 'create_work_item' }],
    });
    expect(rounds[1]).toMatchObject({ round_id: 't-1.r2', text: 'Released v1.' });
    expect(fake.of('completeWorkItem')[0].args.slice(1, 3)).toEqual(['w-1', { round_id: 't-1.r2' }]);
    expect(fake.of('postTerminal')[0].args.slice(1, 3)).toEqual([
      't-1',
      { terminal_kind: 'completed', last_assistant_message: 'All done.' },
    ]);
    expect(model.requests[0].messages[0]).toEqual({ role: 'user', content: 'Plan the release.' });
    expect(model.requests[0].context).toMatchObject({ text: 'context of the agent' });
    expect(model.requests[1].messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1_1_0' });
    model.assertDone();
    expect(ended()[0]).toMatchObject({ terminal_kind: 'completed' });
  });

  it('given a tool refusal, hands it to the model as an error result and the turn goes on', async () => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1'));
    fake.failures.set('pickWorkItem', refusal('not_found', 404, { resource: 'work_item' }));
    const model = new ScriptedModel(
      [
        { tool_calls: [call('pick_work_item', { work_item_id: 'w-x' }), call('no_such_tool')] },
        {
          allow_tool_errors: true,
          respond: ({ results }) => {
            expect(results.map((r) => [r.is_error, (r.value as { error: { code?: string } }).error.code])).toEqual([
              [true, 'not_found'],
              [true, undefined],
            ]);
            return { text: 'That item does not exist.' };
          },
        },
      ],
      { checkTools: false },
    );
    const { agentHost, ended } = host(fake, model);
    agentHost.start();
    await eventually(() => ended().length === 1);
    await agentHost.stop();
    expect(ended()[0]).toMatchObject({ terminal_kind: 'completed' });
    model.assertDone();
  });

  it('given arguments the tool schema refuses, the model gets an error result and no command is sent', async () => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1'));
    const model = new ScriptedModel([
      { tool_calls: [call('create_work_item', { title: 'no objective' })] },
      { allow_tool_errors: true, respond: () => ({ text: 'ok' }) },
    ]);
    const { agentHost, ended, events } = host(fake, model);
    agentHost.start();
    await eventually(() => ended().length === 1);
    await agentHost.stop();
    expect(fake.of('createWorkItem')).toHaveLength(0);
    const toolCall = events.find((e) => e.type === 'tool_call');
    expect(toolCall).toMatchObject({
      is_error: true,
      result: { error: { message: expect.stringMatching(/objective/) } },
    });
  });

  it('heartbeats at a third of the lease; cancel_requested aborts the model call and ends the turn aborted', async () => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1'));
    fake.heartbeats.push({ cancel_requested: false, interjections: [] }, { cancel_requested: true, interjections: [] });
    const model = new HangingModel();
    const { agentHost, ended } = host(fake, model, { leaseTtlMs: 300 });
    agentHost.start();
    await eventually(() => ended().length === 1);
    await agentHost.stop();
    expect(fake.of('heartbeatTurn').length).toBeGreaterThanOrEqual(2);
    expect(fake.of('recordRound')).toHaveLength(0);
    expect(fake.of('postTerminal')[0].args[2]).toMatchObject({ terminal_kind: 'aborted' });
  });

  it('hands interjections from a heartbeat reply to the next round', async () => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1'));
    fake.heartbeats.push({
      cancel_requested: false,
      interjections: [
        { id: 'm-2', kind: 'operator_prompt', body: 'Also update the docs.', authority: 'operator_instruction' },
      ],
    });
    let release: () => void = () => undefined;
    const model = new ScriptedModel([
      async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return { tool_calls: [call('list_work_items')] };
      },
      ({ request }) => {
        expect(request.messages.at(-1)).toEqual({ role: 'user', content: '[interjection] Also update the docs.' });
        return { text: 'Will do.' };
      },
    ]);
    const { agentHost, ended, events } = host(fake, model, { leaseTtlMs: 150 });
    agentHost.start();
    await eventually(() => events.some((e) => e.type === 'heartbeat' && e.interjections === 1));
    release();
    await eventually(() => ended().length === 1);
    await agentHost.stop();
    expect(ended()[0]).toMatchObject({ terminal_kind: 'completed' });
    model.assertDone();
  });

  it('after a stop the round is refused (agent_stopped): the turn ends aborted', async () => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1'));
    fake.failures.set('recordRound', refusal('agent_stopped', 409));
    const model = new ScriptedModel([{ tool_calls: [call('list_work_items')] }]);
    const { agentHost, ended } = host(fake, model);
    agentHost.start();
    await eventually(() => ended().length === 1);
    await agentHost.stop();
    expect(fake.of('listWorkItems')).toHaveLength(0);
    expect(fake.of('postTerminal')[0].args[2]).toMatchObject({ terminal_kind: 'aborted' });
  });

  it('retries an activation that got no answer with the same Idempotency-Key, then uses a new key', async () => {
    const fake = new FakeClient();
    fake.activations.push(new RuntimeNetworkError('socket hang up'), refusal('rate_limited', 429), {
      decision: { kind: 'StayIdle', reason: 'nothing' },
      revision: '3',
    });
    const model = new ScriptedModel([]);
    const { agentHost } = host(fake, model);
    agentHost.start();
    await eventually(() => fake.of('activate').length === 4);
    await agentHost.stop();
    const keys = fake.of('activate').map((c) => c.key);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(fake.of('activate')[0].args[1]).toEqual({ wait_ms: 30_000, lease_ttl_ms: 60_000 });
  });

  it.each<[StopMode, string | undefined]>([
    ['interrupt', 'interrupted'],
    ['abandon', undefined],
  ])('stop({turns: %s}) during a model call: terminal %p', async (mode, terminal) => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1'));
    const model = new HangingModel();
    const { agentHost, ended } = host(fake, model);
    agentHost.start();
    await eventually(() => model.requests.length === 1);
    await agentHost.stop({ turns: mode });
    expect(ended()).toHaveLength(1);
    expect(fake.of('postTerminal').map((c) => (c.args[2] as { terminal_kind: string }).terminal_kind)).toEqual(
      terminal ? [terminal] : [],
    );
    expect(agentHost.running).toEqual([]);
  });

  it('offers a host-defined tool beside the built-in ones and hands it the turn, the round and a per-call key', async () => {
    const fake = new FakeClient();
    fake.activations.push(fake.turn('t-1'));
    const seen: unknown[] = [];
    const shell = {
      name: 'run_shell',
      description: 'Run a shell command.',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      run: async (
        args: Record<string, unknown>,
        context: { turnId: string; roundId: string; idempotencyKey: string },
      ) => {
        seen.push({ args, turnId: context.turnId, roundId: context.roundId, key: context.idempotencyKey });
        return { exit_code: 0, stdout: 'ok' };
      },
    };
    const model = new ScriptedModel([
      { tool_calls: [call('run_shell', { command: 'ls' })] },
      ({ resultOf }) => ({ text: `shell said ${resultOf<{ stdout: string }>('run_shell').stdout}` }),
    ]);
    const agentHost = new AgentHost({ client: fake.asClient(), model, agents: ['a-1'], tools: [shell] });
    const ended: HostEvent[] = [];
    agentHost.on((event) => event.type === 'turn_ended' && ended.push(event));
    agentHost.start();
    await eventually(() => ended.length === 1);
    await agentHost.stop();
    expect(agentHost.tools.map((tool) => tool.name).at(-1)).toBe('run_shell');
    expect(seen).toEqual([{ args: { command: 'ls' }, turnId: 't-1', roundId: 't-1.r1', key: 't-1:call_1_1_0' }]);
    expect(fake.of('postTerminal')[0].args[2]).toEqual({
      terminal_kind: 'completed',
      last_assistant_message: 'shell said ok',
    });
  });

  it('refuses two tools with one name', () => {
    const tool = { name: 'wait_for', description: '', parameters: {}, run: async () => null };
    expect(
      () => new AgentHost({ client: new FakeClient().asClient(), model: new HangingModel(), tools: [tool] }),
    ).toThrow(/two tools/);
  });
});
