import { replay } from '../agent/agent.evolve';
import { given } from '../testing/decider-spec';
import { AGENT, at, created, NOW, picked, registered } from '../testing/fixtures';
import { call, tcmd } from '../testing/turn-fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';

const focused = [registered(), created('w-1'), picked('w-1')];
const queued = history(focused, wcmd.enqueue('m-1'));
const started = history(queued, tcmd.startTurn('t-1', 'm-1'));
const LEASE_END = '2026-01-01T01:01:00.000Z';

describe('StartTurn on the message the scheduler picked', () => {
  it('dequeues the message and opens a turn bound to the focus, with a lease', () => {
    given(queued)
      .when(tcmd.startTurn('t-1', 'm-1'))
      .then([
        { type: 'MessageDequeued', data: { agent_id: AGENT, message_id: 'm-1', turn_id: 't-1', at: NOW } },
        {
          type: 'TurnStarted',
          data: {
            agent_id: AGENT,
            turn_id: 't-1',
            turn_index: 1,
            message_id: 'm-1',
            work_item_id: 'w-1',
            work_item_revision: 1,
            consumed_tick_key: 'work_queue:continue_active:w-1:1',
            lease_ttl_ms: 60_000,
            lease_expires_at: LEASE_END,
            at: NOW,
          },
        },
      ]);
  });

  it('leaves the agent running one open turn, the message dequeued and the continue_active key consumed', () => {
    const state = replay(started);
    expect(state).toMatchObject({ posture: 'awake_running', open_turn_id: 't-1', turn_index: 1, queue: [] });
    expect(state.messages.get('m-1')!.status).toBe('dequeued');
    expect(state.emitted_tick_keys.toJSON()).toEqual({ 'work_queue:continue_active:w-1:1': NOW });
    expect(state.turns.get('t-1')).toMatchObject({
      status: 'open',
      round_ids: [],
      open_round_id: null,
      terminal: null,
    });
  });

  it('binds no item when there is no focus', () => {
    given(history([registered()], wcmd.enqueue('m-1')))
      .when(tcmd.startTurn('t-1', 'm-1'))
      .thenState((_after, events) =>
        expect(events[1].data).toMatchObject({ work_item_id: null, work_item_revision: null, consumed_tick_key: null }),
      );
  });

  it('records nothing when the same turn is started again on the same message', () => {
    given(started).when(tcmd.startTurn('t-1', 'm-1')).thenNothing();
    given(started).when(tcmd.startTurn('t-1', 'm-2')).thenThrows('already_exists', { resource: 'turn' });
  });

  it('refuses a second open turn', () => {
    given(history(started, wcmd.enqueue('m-2')))
      .when(tcmd.startTurn('t-2', 'm-2'))
      .thenThrows('conflict', { rule: 'turn_already_open', open_turn_id: 't-1' });
  });

  it.each([
    ['stopped', 'stop'],
    ['paused', 'pause'],
  ] as const)('refuses a %s agent', (posture, action) => {
    given(history(queued, wcmd.control(action)))
      .when(tcmd.startTurn('t-1', 'm-1'))
      .thenThrows('invariant_violated', { rule: `agent_${posture}` });
  });

  it('refuses a message that is not queued, or not the one the scheduler would take', () => {
    given(history(queued, wcmd.drop('m-1')))
      .when(tcmd.startTurn('t-1', 'm-1'))
      .thenThrows('invariant_violated', { rule: 'message_not_queued' });
    const two = history(queued, wcmd.enqueue('m-2'));
    given(two)
      .when(tcmd.startTurn('t-1', 'm-2'))
      .thenThrows('conflict', { rule: 'stale_decision', expected: { kind: 'StartModelTurn', message_id: 'm-1' } });
    given(queued).when(tcmd.startTurn('t-1', 'm-9')).thenThrows('not_found', { resource: 'message' });
  });

  it('refuses a liveness-only message (it is reduced, never a model turn)', () => {
    const hint = history([registered()], wcmd.wakeHint());
    given(hint)
      .when(tcmd.startTurn('t-1', 'm-hint'))
      .thenThrows('conflict', { rule: 'stale_decision', expected: { kind: 'ReduceMessageOnly' } });
  });

  it.each([[0], [999], [3_600_001], [1.5]])('refuses the lease ttl %j', (ttl) => {
    given(queued)
      .when(tcmd.startTurn('t-1', 'm-1', undefined, ttl))
      .thenThrows('validation_failed', { field: 'lease_ttl_ms' });
  });
});

describe('Heartbeat', () => {
  it('renews the lease from now', () => {
    given(started)
      .when(tcmd.heartbeat('t-1', at(61)))
      .then([
        {
          type: 'TurnLeaseRenewed',
          data: {
            agent_id: AGENT,
            turn_id: 't-1',
            lease_ttl_ms: 60_000,
            lease_expires_at: '2026-01-01T01:02:00.000Z',
            at: at(61),
          },
        },
      ]);
  });

  it('hands over queued interject operator prompts, marked interjected, and leaves the others queued', () => {
    const busy = history(
      started,
      wcmd.enqueue('m-n'),
      wcmd.enqueue('m-i', { priority: 'interject' }),
      wcmd.enqueue('m-c', { priority: 'interject', kind: 'control' }),
    );
    given(busy)
      .when(tcmd.heartbeat('t-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TurnLeaseRenewed', 'MessageInterjected']);
        expect(events[1].data).toEqual({ agent_id: AGENT, message_id: 'm-i', turn_id: 't-1', at: NOW });
        expect(after.messages.get('m-i')!.status).toBe('interjected');
        expect(after.queue).toEqual(['m-n', 'm-c']);
      });
  });

  it('is refused for an ended turn (the host lost it) and an unknown one', () => {
    given(history(started, tcmd.terminal('t-1', 'completed')))
      .when(tcmd.heartbeat('t-1'))
      .thenThrows('invariant_violated', { rule: 'turn_not_open' });
    given(started).when(tcmd.heartbeat('t-9')).thenThrows('not_found', { resource: 'turn' });
  });
});

describe('RecordRound', () => {
  it('records the round before its tools run, bound to the focus, and opens it', () => {
    given(started)
      .when(tcmd.round('t-1', 'r-1', ' looking ', [call('c-1', 'grep')]))
      .thenState((after, events) => {
        expect(events).toEqual([
          {
            type: 'AssistantRoundRecorded',
            data: {
              agent_id: AGENT,
              turn_id: 't-1',
              round_id: 'r-1',
              work_item_id: 'w-1',
              text: 'looking',
              tool_calls: [call('c-1', 'grep')],
              at: NOW,
            },
          },
        ]);
        expect(after.turns.get('t-1')).toMatchObject({ round_ids: ['r-1'], open_round_id: 'r-1' });
        expect(after.rounds.get('r-1')).toMatchObject({ status: 'open', completions: [], text: 'looking' });
      });
  });

  it('closes the previous open round first', () => {
    given(history(started, tcmd.round('t-1', 'r-1', 'a')))
      .when(tcmd.round('t-1', 'r-2', 'b'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['RoundClosed', 'AssistantRoundRecorded']);
        expect(events[0].data).toMatchObject({ round_id: 'r-1', cause: 'next_round', promotion: null, warnings: [] });
        expect(after.rounds.get('r-1')!.status).toBe('closed');
        expect(after.turns.get('t-1')).toMatchObject({ round_ids: ['r-1', 'r-2'], open_round_id: 'r-2' });
      });
  });

  it('records nothing for the very same round again, and refuses a reused round id', () => {
    const one = history(started, tcmd.round('t-1', 'r-1', 'a', [call('c-1')]));
    given(one)
      .when(tcmd.round('t-1', 'r-1', 'a', [call('c-1')]))
      .thenNothing();
    given(one)
      .when(tcmd.round('t-1', 'r-1', 'other'))
      .thenThrows('already_exists', { resource: 'round' });
  });

  it.each([
    ['duplicate tool call ids', [call('c-1'), call('c-1')], 'tool_calls'],
    ['a malformed tool call id', [call('c 1')], 'tool_calls[0].tool_call_id'],
    ['a blank tool name', [call('c-1', ' ')], 'tool_calls[0].name'],
  ])('refuses %s', (_name, calls, field) => {
    given(started)
      .when(tcmd.round('t-1', 'r-1', 'x', calls))
      .thenThrows('validation_failed', { field });
  });

  it('is refused once the turn has ended', () => {
    given(history(started, tcmd.terminal('t-1', 'completed')))
      .when(tcmd.round('t-1', 'r-1'))
      .thenThrows('invariant_violated', { rule: 'turn_not_open' });
  });
});

describe('CloseRound', () => {
  const open = history(started, tcmd.round('t-1', 'r-1', 'a'));

  it('closes the round explicitly; a closed round records nothing', () => {
    given(open)
      .when(tcmd.closeRound('t-1', 'r-1'))
      .then([
        {
          type: 'RoundClosed',
          data: {
            agent_id: AGENT,
            turn_id: 't-1',
            round_id: 'r-1',
            cause: 'explicit',
            promotion: null,
            warnings: [],
            at: NOW,
          },
        },
      ]);
    given(history(open, tcmd.closeRound('t-1', 'r-1')))
      .when(tcmd.closeRound('t-1', 'r-1'))
      .thenNothing();
  });

  it('refuses a round of another turn', () => {
    given(open).when(tcmd.closeRound('t-1', 'r-9')).thenThrows('not_found', { resource: 'round' });
  });
});
