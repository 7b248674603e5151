import { replay } from '../agent/agent.evolve';
import { given } from '../testing/decider-spec';
import { AGENT, created, NOW, picked, registered } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';

// docs/domain-contract.md §4 (Stop and pause reach the running turn): the heartbeat reply asks the
// host to end the turn; after stop only the heartbeat and the terminal are accepted; a turn the
// host aborts while the agent is paused gives its message back to the queue.
const focused = [registered(), created('w-1'), picked('w-1')];
const started = history(focused, wcmd.enqueue('m-1'), tcmd.startTurn('t-1', 'm-1'));
const stopped = history(started, wcmd.control('stop'));
const paused = history(started, wcmd.control('pause'));

describe('the heartbeat after stop or pause', () => {
  it.each([
    ['running', started],
    ['stopped', stopped],
    ['paused', paused],
  ] as const)('%s: the lease is renewed', (_n, events) => {
    given([...events])
      .when(tcmd.heartbeat('t-1'))
      .thenState((_after, newEvents) => expect(typesOf(newEvents)).toEqual(['TurnLeaseRenewed']));
  });

  it.each([
    ['stop', 'stopped'],
    ['pause', 'paused'],
  ] as const)('after %s hands over no interjection: the prompt stays queued', (action, _posture) => {
    const events = history(started, wcmd.enqueue('m-i', { priority: 'interject' }), wcmd.control(action));
    given(events)
      .when(tcmd.heartbeat('t-1'))
      .thenState((after, newEvents) => {
        expect(typesOf(newEvents)).toEqual(['TurnLeaseRenewed']);
        expect(after.messages.get('m-i')!.status).toBe('queued');
      });
  });
});

describe('after stop', () => {
  it('refuses a new round with agent_stopped', () => {
    given(stopped)
      .when(tcmd.round('t-1', 'r-1', 'more work'))
      .thenThrows('agent_stopped', { rule: 'agent_stopped', turn_id: 't-1', action: 'record a round' });
  });

  it('still records nothing for the very same round recorded before the stop (a retry)', () => {
    const withRound = history(started, tcmd.round('t-1', 'r-1', 'work'), wcmd.control('stop'));
    given(withRound)
      .when(tcmd.round('t-1', 'r-1', 'work'))
      .thenNothing();
  });

  it('refuses an interjection (an interject operator prompt) with agent_stopped; other priorities queue', () => {
    given(stopped)
      .when(wcmd.enqueue('m-i', { priority: 'interject' }))
      .thenThrows('agent_stopped', { rule: 'agent_stopped', action: 'interject', message_id: 'm-i' });
    given(stopped)
      .when(wcmd.enqueue('m-n', { priority: 'next' }))
      .thenState((after) => expect(after.messages.get('m-n')!.status).toBe('queued'));
  });

  it('lets the turn post its terminal: aborted, the message aborted as before', () => {
    given(stopped)
      .when(tcmd.terminal('t-1', 'aborted'))
      .thenState((after, newEvents) => {
        expect(typesOf(newEvents)).toEqual(['TurnTerminal', 'MessageAborted']);
        expect(after.messages.get('m-1')!.status).toBe('aborted');
        expect(after).toMatchObject({ posture: 'stopped', open_turn_id: null });
      });
  });
});

describe('after pause', () => {
  it('still accepts rounds (the host decides the round boundary)', () => {
    given(paused)
      .when(tcmd.round('t-1', 'r-1', 'finishing'))
      .thenState((_after, newEvents) => expect(typesOf(newEvents)).toEqual(['AssistantRoundRecorded']));
  });

  it('an aborted terminal returns the message to queued (cause paused, not counted), replayed on resume', () => {
    given(paused)
      .when(tcmd.terminal('t-1', 'aborted'))
      .then([
        {
          type: 'TurnTerminal',
          data: {
            agent_id: AGENT,
            turn_id: 't-1',
            turn_index: 1,
            message_id: 'm-1',
            work_item_id: 'w-1',
            terminal_kind: 'aborted',
            last_assistant_message: null,
            at: NOW,
          },
        },
        {
          type: 'MessageRequeued',
          data: { agent_id: AGENT, message_id: 'm-1', turn_id: 't-1', at: NOW, cause: 'paused' },
        },
      ]);
    const ended = replay(history(paused, tcmd.terminal('t-1', 'aborted')));
    expect(ended.messages.get('m-1')).toMatchObject({ status: 'queued', interrupt_count: 0 });
    expect(ended).toMatchObject({ posture: 'paused', open_turn_id: null, queue: ['m-1'] });
    given(history(paused, tcmd.terminal('t-1', 'aborted'), wcmd.control('resume')))
      .when(tcmd.startTurn('t-2', 'm-1'))
      .thenState((after) => expect(after.turns.get('t-2')).toMatchObject({ message_id: 'm-1', status: 'open' }));
  });

  it('a completed terminal still processes the message', () => {
    given(paused)
      .when(tcmd.terminal('t-1', 'completed', 'done'))
      .thenState((after) => expect(after.messages.get('m-1')!.status).toBe('processed'));
  });
});
