import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { at, cmd, registered } from '../testing/fixtures';
import { nextDecision } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';

const agent = [registered()];
const external = (intentId: string, workItemId: string | null, data = {}): AgentCommand =>
  wcmd.waitFor(intentId, workItemId, {
    wake: 'external',
    resource: 'pr-7',
    callback_token_hash: `sha256:${intentId}`,
    ...data,
  });
const withItem = (...commands: AgentCommand[]): AgentEvent[] =>
  history(agent, cmd.create('w-1'), cmd.create('w-2'), ...commands);

type Row = [string, AgentEvent[], 'StartModelTurn' | 'ReduceMessageOnly', string];

const ROWS: Row[] = [
  ['an operator prompt', history(agent, wcmd.enqueue('m-1')), 'StartModelTurn', 'operator_input'],
  [
    'an internal follow-up',
    history(agent, wcmd.enqueue('m-1', { kind: 'internal_followup', authority: 'runtime_instruction' })),
    'StartModelTurn',
    'internal_followup',
  ],
  [
    'a timer fire',
    history(agent, wcmd.createTimer('tm-1', { fire_at: at(30) }), wcmd.fireTimer('tm-1', at(60), 'm-1')),
    'StartModelTurn',
    'timer_fire',
  ],
  [
    'a contentful external event',
    history(agent, wcmd.enqueue('m-1', { kind: 'webhook_event', authority: 'external_evidence' })),
    'StartModelTurn',
    'contentful_external_event',
  ],
  [
    'a contentful wake hint tick',
    history(agent, wcmd.wakeHint({ body: 'build 12 is green', message_id: 'm-1' })),
    'StartModelTurn',
    'contentful_tick',
  ],
  [
    'a wake hint without body (liveness only)',
    history(agent, wcmd.wakeHint({ message_id: 'm-1' })),
    'ReduceMessageOnly',
    'liveness_only_tick',
  ],
  ['a control message', history(agent, wcmd.enqueue('m-1', { kind: 'control' })), 'ReduceMessageOnly', 'control_plane'],
  [
    'an external event for an item waiting on that external change',
    withItem(
      external('i-1', 'w-1'),
      wcmd.enqueue('m-1', { kind: 'webhook_event', work_item_id: 'w-1', authority: 'external_evidence' }),
    ),
    'StartModelTurn',
    'contentful_external_event',
  ],
  [
    "a callback event delivering the item's own trigger",
    withItem(
      external('i-1', 'w-1', { delivery_mode: 'enqueue_message' }),
      wcmd.trigger('i-1', { message_id: 'm-1', payload: { ok: true } }),
    ),
    'StartModelTurn',
    'contentful_external_event',
  ],
  [
    'a mismatched trigger: an external event for an item waiting on the operator',
    withItem(
      wcmd.waitFor('i-1', 'w-1'),
      wcmd.enqueue('m-1', { kind: 'webhook_event', work_item_id: 'w-1', authority: 'external_evidence' }),
    ),
    'ReduceMessageOnly',
    'mismatched_trigger',
  ],
  [
    'a mismatched trigger: a channel event for an item waiting on a task',
    withItem(
      wcmd.createTask('t-1'),
      wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }),
      wcmd.enqueue('m-1', { kind: 'channel_event', work_item_id: 'w-1', authority: 'external_evidence' }),
    ),
    'ReduceMessageOnly',
    'mismatched_trigger',
  ],
  [
    'a terminal task result for the focused item',
    withItem(
      cmd.pick('w-1'),
      wcmd.createTask('t-1', { work_item_id: 'w-1' }),
      wcmd.taskStatus('t-1', 'completed', { message_id: 'm-1' }),
    ),
    'StartModelTurn',
    'task_result_for_focus',
  ],
  [
    'a terminal task result for another item (it only reduces; the item surfaces as queued work)',
    withItem(
      cmd.pick('w-2'),
      wcmd.createTask('t-1', { work_item_id: 'w-1' }),
      wcmd.taskStatus('t-1', 'failed', { message_id: 'm-1' }),
    ),
    'ReduceMessageOnly',
    'task_result_not_for_focus',
  ],
  [
    'a terminal task result satisfying an agent-scoped wait',
    history(
      agent,
      wcmd.createTask('t-1'),
      wcmd.waitFor('i-1', null, { wake: 'task_result', resource: 't-1' }),
      wcmd.taskStatus('t-1', 'completed', { message_id: 'm-1' }),
    ),
    'StartModelTurn',
    'task_result_for_agent_wait',
  ],
  [
    'a terminal task result nobody waits for',
    history(agent, wcmd.createTask('t-1'), wcmd.taskStatus('t-1', 'completed', { message_id: 'm-1' })),
    'ReduceMessageOnly',
    'task_result_not_for_focus',
  ],
];

describe('model re-entry classification of the queued message (rung 3)', () => {
  it.each(ROWS)('%s -> %s', (_name, events, kind, reason) => {
    const decision = nextDecision(events);
    expect(decision).toMatchObject({
      kind,
      reason,
      message_id: 'm-1',
      model_reentry: kind === 'StartModelTurn',
      liveness_only: kind === 'ReduceMessageOnly',
    });
  });

  it('names the message, its kind and the classification in the evidence', () => {
    const decision = nextDecision(ROWS[9][1]);
    expect(decision.evidence).toEqual(
      expect.arrayContaining([
        'message:m-1',
        'message_kind:webhook_event',
        'liveness_only:mismatched_trigger',
        'work_item:w-1',
        'waiting_on:operator_input',
      ]),
    );
  });

  it('takes the highest band first, oldest first within it', () => {
    const events = history(
      agent,
      wcmd.enqueue('m-late', { priority: 'background' }),
      wcmd.enqueue('m-a'),
      wcmd.enqueue('m-b'),
      wcmd.enqueue('m-i', { priority: 'interject' }),
    );
    expect(nextDecision(events).message_id).toBe('m-i');
    expect(nextDecision(history(events, wcmd.drop('m-i'))).message_id).toBe('m-a');
  });

  it('carries the task of a task result', () => {
    expect(nextDecision(ROWS[11][1])).toMatchObject({ task_id: 't-1', work_item_id: 'w-1' });
  });
});

describe('a paused agent', () => {
  const paused = history(agent, wcmd.control('pause'));

  it('still reduces liveness-only messages', () => {
    const events = history(paused, wcmd.enqueue('m-op'), wcmd.enqueue('m-1', { kind: 'control' }));
    expect(replay(events).queue).toEqual(['m-op', 'm-1']);
    expect(nextDecision(events)).toMatchObject({
      kind: 'ReduceMessageOnly',
      message_id: 'm-1',
      reason: 'control_plane',
    });
  });

  it('starts no model turn: messages that need one accumulate', () => {
    expect(nextDecision(history(paused, wcmd.enqueue('m-op')))).toMatchObject({ kind: 'Noop', reason: 'paused' });
  });
});
