import { ModelAbortedError, ScriptedModelError } from './errors';
import {
  assistantMessage,
  type JsonRecord,
  type ModelMessage,
  type ModelResponse,
  type ModelToolDefinition,
  toolResultMessage,
} from './model-adapter';
import { call, type Script, ScriptedModel } from './scripted-model';

const tool = (name: string): ModelToolDefinition => ({
  name,
  description: `the ${name} tool`,
  parameters: { type: 'object', properties: {} },
});
const TOOLS = ['create_work_item', 'pick_work_item', 'update_work_item', 'wait_for', 'complete_work_item'].map(tool);
const CONTEXT = { text: 'current work item: none' };

type Tools = Record<string, (args: JsonRecord) => unknown>;

/** A minimal host turn: call the model, run its tools, append the results, until it stops. */
async function runTurn(model: ScriptedModel, user: string, tools: Tools): Promise<ModelResponse[]> {
  const messages: ModelMessage[] = [{ role: 'user', content: user }];
  const responses: ModelResponse[] = [];
  for (;;) {
    const response = await model.complete({ context: CONTEXT, messages, tools: TOOLS });
    responses.push(response);
    messages.push(assistantMessage(response));
    if (response.tool_calls.length === 0) return responses;
    for (const c of response.tool_calls) {
      try {
        messages.push(toolResultMessage(c.id, tools[c.name](c.arguments)));
      } catch (err) {
        messages.push(toolResultMessage(c.id, { error: (err as Error).message }, true));
      }
    }
  }
}

/** Fake work-item tools that log what they were called with. */
function fakeTools(log: Array<[string, JsonRecord]>, overrides: Tools = {}): Tools {
  let next = 0;
  const record =
    (name: string, answer: (args: JsonRecord) => unknown) =>
    (args: JsonRecord): unknown => {
      log.push([name, args]);
      return answer(args);
    };
  return {
    create_work_item: record('create_work_item', (a) => ({
      work_item: { work_item_id: `w${++next}`, title: a.title },
    })),
    pick_work_item: record('pick_work_item', (a) => ({
      work_item: { work_item_id: a.work_item_id, status: 'active' },
    })),
    update_work_item: record('update_work_item', (a) => ({ work_item: { work_item_id: a.work_item_id } })),
    wait_for: record('wait_for', () => ({ waiting_intent: { waiting_intent_id: 'i1', wake: 'timer' } })),
    complete_work_item: record('complete_work_item', (a) => ({ work_item: { work_item_id: a.work_item_id } })),
    ...overrides,
  };
}

type Created = { work_item: { work_item_id: string } };

/** The example agent's script: plan, pick, update todos, wait on a timer; next turn, complete with a report. */
const exampleScript = (): Script => ({
  turns: [
    [
      {
        text: 'Plan: draft the report, then review it.',
        tool_calls: [
          call('create_work_item', { title: 'Draft the report' }),
          call('create_work_item', { title: 'Review' }),
        ],
      },
      ({ results }) => ({
        tool_calls: [call('pick_work_item', { work_item_id: (results[0].value as Created).work_item.work_item_id })],
      }),
      ({ resultOf }) => ({
        tool_calls: [
          call('update_work_item', {
            work_item_id: resultOf<Created>('pick_work_item').work_item.work_item_id,
            todos: [{ text: 'outline', done: true }, { text: 'write' }],
          }),
        ],
      }),
      { tool_calls: [call('wait_for', { wake: 'timer', fire_in_ms: 1000, reason: 'let the draft rest' })] },
      { text: 'Waiting on the timer.' },
    ],
    [
      ({ user }) => ({
        text: 'Writing the report.',
        tool_calls: [call('complete_work_item', { work_item_id: 'w1', report: `Report (woken by: ${user})` })],
      }),
      { text: 'Done: the report is delivered.', usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
    ],
  ],
});

describe('ScriptedModel', () => {
  it('plays plan, pick, update todos, wait on a timer, then completes with a report on the next turn', async () => {
    const model = new ScriptedModel(exampleScript());
    const log: Array<[string, JsonRecord]> = [];
    const tools = fakeTools(log);

    const first = await runTurn(model, 'Write the quarterly report', tools);
    const second = await runTurn(model, 'timer fired', tools);

    expect(log).toEqual([
      ['create_work_item', { title: 'Draft the report' }],
      ['create_work_item', { title: 'Review' }],
      ['pick_work_item', { work_item_id: 'w1' }],
      ['update_work_item', { work_item_id: 'w1', todos: [{ text: 'outline', done: true }, { text: 'write' }] }],
      ['wait_for', { wake: 'timer', fire_in_ms: 1000, reason: 'let the draft rest' }],
      ['complete_work_item', { work_item_id: 'w1', report: 'Report (woken by: timer fired)' }],
    ]);
    expect(first[0]).toEqual({
      text: 'Plan: draft the report, then review it.',
      tool_calls: [
        { id: 'call_1_1_0', name: 'create_work_item', arguments: { title: 'Draft the report' } },
        { id: 'call_1_1_1', name: 'create_work_item', arguments: { title: 'Review' } },
      ],
      finish_reason: 'tool_calls',
    });
    expect(first.map((r) => r.finish_reason)).toEqual(['tool_calls', 'tool_calls', 'tool_calls', 'tool_calls', 'stop']);
    expect(second[0].tool_calls[0].id).toBe('call_2_1_0');
    expect(second[1]).toEqual({
      text: 'Done: the report is delivered.',
      tool_calls: [],
      finish_reason: 'stop',
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    });
    expect(model.requests).toHaveLength(7);
    expect(model.remaining).toBe(0);
    expect(() => model.assertDone()).not.toThrow();
  });

  it('fails clearly when the script runs out', async () => {
    const flat = new ScriptedModel([{ text: 'only one' }]);
    await runTurn(flat, 'hi', {});
    await expect(runTurn(flat, 'again', {})).rejects.toThrow(
      new ScriptedModelError('script ran out: all 1 steps played (turn 2)'),
    );

    const byTurn = new ScriptedModel({ turns: [[{ text: 'one turn' }]] });
    await runTurn(byTurn, 'hi', {});
    await expect(runTurn(byTurn, 'again', {})).rejects.toThrow(
      'script ran out: all 1 turns played, a new turn started',
    );
  });

  it('holds a scripted turn to its rounds: no new turn early, no round past its end', async () => {
    const early = new ScriptedModel({
      turns: [[{ tool_calls: [call('wait_for')] }, { text: 'waiting' }], [{ text: 'b' }]],
    });
    await early.complete({ context: CONTEXT, messages: [{ role: 'user', content: 'a' }], tools: TOOLS });
    await expect(
      early.complete({ context: CONTEXT, messages: [{ role: 'user', content: 'b' }], tools: TOOLS }),
    ).rejects.toThrow('script turn 1 has 2 rounds but a new turn started after 1');

    const late = new ScriptedModel({ turns: [[{ tool_calls: [call('wait_for')] }]] });
    await expect(runTurn(late, 'a', fakeTools([]))).rejects.toThrow(
      'script turn 1 ended after 1 rounds, but the turn asked for round 2',
    );
    expect(() => new ScriptedModel([{ text: 'x' }]).assertDone()).toThrow(
      'script not finished: 1 of 1 steps not played',
    );
  });

  it('fails on a tool error the script did not expect, and hands it to a step that allows it', async () => {
    const failing = fakeTools([], {
      pick_work_item: () => {
        throw new Error('work item w9 not found');
      },
    });
    const strict = new ScriptedModel([
      { tool_calls: [call('pick_work_item', { work_item_id: 'w9' })] },
      { text: 'ok' },
    ]);
    await expect(runTurn(strict, 'go', failing)).rejects.toThrow(
      new ScriptedModelError(
        'script turn 1 round 2: tool "pick_work_item" (call_1_1_0) returned an error the script did not expect: ' +
          '{"error":"work item w9 not found"}',
      ),
    );

    const seen: unknown[] = [];
    const tolerant = new ScriptedModel([
      { tool_calls: [call('pick_work_item', { work_item_id: 'w9' })] },
      {
        allow_tool_errors: true,
        respond: ({ results }) => {
          seen.push(...results);
          return { text: 'that item does not exist' };
        },
      },
    ]);
    await runTurn(tolerant, 'go', failing);
    expect(seen).toEqual([
      {
        tool_call_id: 'call_1_1_0',
        name: 'pick_work_item',
        content: '{"error":"work item w9 not found"}',
        is_error: true,
        value: { error: 'work item w9 not found' },
      },
    ]);
  });

  it('fails when a tool call has no result, a tool is not offered, a looked-up result is missing, a step is empty', async () => {
    const model = new ScriptedModel([{ tool_calls: [call('wait_for', {}, 'c1')] }, { text: 'x' }]);
    const first = await model.complete({ context: CONTEXT, messages: [{ role: 'user', content: 'a' }], tools: TOOLS });
    const messages: ModelMessage[] = [{ role: 'user', content: 'a' }, assistantMessage(first)];
    await expect(model.complete({ context: CONTEXT, messages, tools: TOOLS })).rejects.toThrow(
      'script turn 1 round 2: tool call c1 ("wait_for") has no result in the conversation',
    );

    const unknown = new ScriptedModel([{ tool_calls: [call('delete_everything')] }]);
    await expect(runTurn(unknown, 'a', {})).rejects.toThrow(
      'script turn 1 round 1: calls tool "delete_everything", which the request does not offer (offered: ' +
        'create_work_item, pick_work_item, update_work_item, wait_for, complete_work_item)',
    );
    const unchecked = new ScriptedModel([{ tool_calls: [call('anything')] }], { checkTools: false });
    const round = await unchecked.complete({ context: CONTEXT, messages: [], tools: [] });
    expect(round.tool_calls).toEqual([{ id: 'call_1_1_0', name: 'anything', arguments: {} }]);

    const lookup = new ScriptedModel([({ resultOf }) => ({ text: String(resultOf('pick_work_item')) })]);
    await expect(runTurn(lookup, 'a', {})).rejects.toThrow(
      'script turn 1 round 1: no result of tool "pick_work_item" in this turn',
    );
    await expect(new ScriptedModel([{}]).complete({ context: {}, messages: [], tools: [] })).rejects.toThrow(
      'script turn 1 round 1: the step has neither text nor tool calls',
    );
  });

  it('rejects an aborted call without playing a step', async () => {
    const model = new ScriptedModel([{ text: 'later' }]);
    const controller = new AbortController();
    controller.abort(new Error('cancel_requested'));
    const signal = controller.signal;
    await expect(model.complete({ context: CONTEXT, messages: [], tools: TOOLS, signal })).rejects.toThrow(
      new ModelAbortedError(new Error('cancel_requested')),
    );
    expect(model.remaining).toBe(1);
    await expect(model.complete({ context: CONTEXT, messages: [], tools: TOOLS })).resolves.toMatchObject({
      text: 'later',
    });
  });
});
