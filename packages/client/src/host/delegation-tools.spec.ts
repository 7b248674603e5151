import { AgentHost } from './agent-host';
import type { HostEvent } from './host-types';
import { call, ScriptedModel } from './model';
import { FakeClient, refusal } from './testing/fake-client';

/* spawn_agent against a faked client: what the tool sends, what the model reads back, its errors. */

const eventually = async (check: () => boolean, ms = 3_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

async function runTurn(fake: FakeClient, model: ScriptedModel, options: { spawnTool?: boolean } = {}) {
  fake.activations.push(fake.turn('t-1', 'Split the work.'));
  const events: HostEvent[] = [];
  const host = new AgentHost({
    client: fake.asClient(),
    model,
    agents: ['a-1'],
    onEvent: (event) => events.push(event),
    ...options,
  });
  host.start();
  await eventually(() => events.some((e) => e.type === 'turn_ended'));
  await host.stop();
  return { host, events, toolCalls: events.filter((e) => e.type === 'tool_call') };
}

describe('spawn_agent (faked client)', () => {
  it('is offered after the work-item tools, and not with spawnTool: false', () => {
    const model = new ScriptedModel([]);
    const names = new AgentHost({ client: new FakeClient().asClient(), model }).tools.map((t) => t.name);
    expect(names.slice(-2)).toEqual(['wait_for', 'spawn_agent']);
    const without = new AgentHost({ client: new FakeClient().asClient(), model, spawnTool: false });
    expect(without.tools.map((t) => t.name)).not.toContain('spawn_agent');
  });

  it('given a private child, spawns it under the tool call key and hands the model the child, delegation and task ids', async () => {
    const fake = new FakeClient();
    const model = new ScriptedModel([
      {
        tool_calls: [
          call('spawn_agent', { initial_message: 'Summarise the logs', agent_id: 'kid-1', preset: 'coder' }),
        ],
      },
      ({ resultOf }) => {
        expect(resultOf('spawn_agent')).toEqual({
          workspace_mode: 'private_child',
          child_agent_id: 'kid-1',
          delegation_id: 'dlg-1',
          task_id: 'dlg-1',
          work_item_id: 'w-focus',
          label: 'label',
          child_message_id: 'msg-1',
          warnings: [],
        });
        return { text: 'Delegated.' };
      },
    ]);
    const { toolCalls } = await runTurn(fake, model);
    model.assertDone();
    expect(toolCalls).toEqual([expect.objectContaining({ name: 'spawn_agent', is_error: false })]);
    const [spawn] = fake.of('spawn');
    expect(spawn.args.slice(0, 2)).toEqual([
      'a-1',
      { workspace_mode: 'private_child', initial_message: 'Summarise the logs', agent_id: 'kid-1', preset: 'coder' },
    ]);
    expect(spawn.key).toBe('t-1:call_1_1_0');
  });

  it('given a public agent, sends its mode and work item as given and reads back no delegation', async () => {
    const fake = new FakeClient();
    const model = new ScriptedModel([
      { tool_calls: [call('spawn_agent', { workspace_mode: 'public_named', agent_id: 'pub-1', template: 't' })] },
      ({ resultOf }) => {
        expect(resultOf('spawn_agent')).toMatchObject({
          workspace_mode: 'public_named',
          child_agent_id: 'pub-1',
          delegation_id: null,
          task_id: null,
        });
        return { text: 'ok' };
      },
    ]);
    await runTurn(fake, model);
    model.assertDone();
    expect(fake.of('spawn')[0].args[1]).toEqual({ workspace_mode: 'public_named', agent_id: 'pub-1', template: 't' });
  });

  it('given a private child without a message, the model gets an error result and nothing is sent', async () => {
    const fake = new FakeClient();
    const model = new ScriptedModel([
      { tool_calls: [call('spawn_agent', { agent_id: 'kid-1' })] },
      { allow_tool_errors: true, respond: () => ({ text: 'ok' }) },
    ]);
    const { toolCalls } = await runTurn(fake, model);
    expect(fake.of('spawn')).toHaveLength(0);
    expect(toolCalls[0]).toMatchObject({
      is_error: true,
      result: { error: { message: expect.stringMatching(/initial_message/) } },
    });
  });

  it('given a refusal (no delegating item), the model reads the code and details like any tool error', async () => {
    const fake = new FakeClient();
    fake.failures.set('spawn', refusal('work_item_required', 400, { field: 'work_item_id' }));
    const model = new ScriptedModel([
      { tool_calls: [call('spawn_agent', { initial_message: 'x' }), call('spawn_agent', { bogus: 1 })] },
      {
        allow_tool_errors: true,
        respond: ({ results }) => {
          expect(results.map((r) => (r.value as { error: { code?: string } }).error.code)).toEqual([
            'work_item_required',
            undefined,
          ]);
          expect(results[0].value).toEqual({
            error: { code: 'work_item_required', message: 'work_item_required', details: { field: 'work_item_id' } },
          });
          return { text: 'I need an item first.' };
        },
      },
    ]);
    await runTurn(fake, model);
    model.assertDone();
    expect(fake.of('spawn')).toHaveLength(1);
  });
});
