import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { decideNextAction } from '../scheduler/decide-next-action';
import { given, givenState } from '../testing/decider-spec';
import { AGENT, at, created, NOW, picked, registered } from '../testing/fixtures';
import { call, tcmd } from '../testing/turn-fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { expiredTurn } from './turn-terminal.decide';

const focused = [registered(), created('w-1'), picked('w-1')];
const started = history(focused, wcmd.enqueue('m-1'), tcmd.startTurn('t-1', 'm-1'));
const working = history(started, tcmd.round('t-1', 'r-1', 'checking', [call('c-1')]));
const terminal = (kind: string, last: string | null): AgentEvent =>
  ({
    type: 'TurnTerminal',
    data: {
      agent_id: AGENT,
      turn_id: 't-1',
      turn_index: 1,
      message_id: 'm-1',
      work_item_id: 'w-1',
      terminal_kind: kind,
      last_assistant_message: last,
      at: NOW,
    },
  }) as AgentEvent;
const moved = (type: string): AgentEvent =>
  ({ type, data: { agent_id: AGENT, message_id: 'm-1', turn_id: 't-1', at: NOW } }) as AgentEvent;
const brief = (kind: string, text: string): AgentEvent =>
  ({
    type: 'BriefRecorded',
    data: {
      agent_id: AGENT,
      brief_id: 'brief_turn_t-1',
      kind,
      text,
      work_item_id: 'w-1',
      turn_id: 't-1',
      round_id: null,
      at: NOW,
    },
  }) as AgentEvent;

describe('TurnTerminal', () => {
  it('completed: closes the last round, marks the message processed and writes a result brief', () => {
    given(working)
      .when(tcmd.terminal('t-1', 'completed', 'All checked.'))
      .then([
        {
          type: 'RoundClosed',
          data: {
            agent_id: AGENT,
            turn_id: 't-1',
            round_id: 'r-1',
            cause: 'turn_terminal',
            promotion: null,
            warnings: [],
            at: NOW,
          },
        },
        terminal('completed', 'All checked.'),
        moved('MessageProcessed'),
        brief('result', 'All checked.'),
      ]);
  });

  it('completed without a last message writes no brief', () => {
    given(started)
      .when(tcmd.terminal('t-1', 'completed'))
      .then([terminal('completed', null), moved('MessageProcessed')]);
  });

  it('aborted: the message is aborted, no brief', () => {
    given(started)
      .when(tcmd.terminal('t-1', 'aborted', 'stop'))
      .then([terminal('aborted', 'stop'), moved('MessageAborted')]);
  });

  it('failed: processed (never replayed) with a failure brief', () => {
    given(started)
      .when(tcmd.terminal('t-1', 'failed'))
      .then([terminal('failed', null), moved('MessageProcessed'), brief('failure', 'Turn t-1 failed.')]);
  });

  it('baseline_over_budget: processed with a failure brief, and the work items and focus are untouched', () => {
    const before = replay(started);
    givenState(before)
      .when(tcmd.terminal('t-1', 'baseline_over_budget'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TurnTerminal', 'MessageProcessed', 'BriefRecorded']);
        expect(after.briefs.get('brief_turn_t-1')).toMatchObject({
          kind: 'failure',
          text: 'Turn t-1 ended: its baseline context is over budget.',
        });
        expect(after.work_items).toBe(before.work_items);
        expect(after.current_work_item_id).toBe('w-1');
        expect(after.messages.get('m-1')!.status).toBe('processed');
      });
  });

  it('ends the turn: no open turn, the agent idle again, the message out of the queue', () => {
    given(working)
      .when(tcmd.terminal('t-1', 'completed'))
      .thenState((after) => {
        expect(after).toMatchObject({ open_turn_id: null, posture: 'awake_idle', queue: [] });
        expect(after.turns.get('t-1')).toMatchObject({
          status: 'closed',
          open_round_id: null,
          terminal: { terminal_kind: 'completed', at: NOW },
        });
      });
  });

  it('records nothing for the same terminal again and refuses a different one', () => {
    const ended = history(started, tcmd.terminal('t-1', 'completed'));
    given(ended).when(tcmd.terminal('t-1', 'completed')).thenNothing();
    given(ended)
      .when(tcmd.terminal('t-1', 'failed'))
      .thenThrows('invariant_violated', { rule: 'turn_already_terminal', terminal_kind: 'completed' });
  });

  it('refuses an unknown terminal kind', () => {
    given(started)
      .when(tcmd.terminal('t-1', 'exploded' as never))
      .thenThrows('validation_failed', { field: 'terminal_kind' });
  });
});

describe('lease expiry (the host died)', () => {
  const LATE = at(62);

  it('is refused before the lease runs out', () => {
    given(started)
      .when(tcmd.expire('t-1', at(60)))
      .thenThrows('invariant_violated', { rule: 'lease_not_expired' });
    expect(expiredTurn(replay(started), at(60))).toBeNull();
    expect(expiredTurn(replay(started), LATE)?.turn_id).toBe('t-1');
  });

  it('ends the turn interrupted and requeues the message at its place, keeping tool calls as evidence', () => {
    given(working)
      .when(tcmd.expire('t-1', LATE))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['RoundClosed', 'TurnTerminal', 'MessageRequeued', 'RecoveryClassified']);
        expect(events[3].data).toEqual({
          agent_id: AGENT,
          turn_id: 't-1',
          message_id: 'm-1',
          classification: 'requeued',
          cause: 'lease_expired',
          interrupt_count: 1,
          tool_call_ids: ['c-1'],
          at: LATE,
        });
        expect(after.messages.get('m-1')!).toMatchObject({
          status: 'queued',
          interrupt_count: 1,
          seq: replay(working).messages.get('m-1')!.seq,
        });
        expect(after).toMatchObject({ queue: ['m-1'], open_turn_id: null, posture: 'awake_idle' });
        expect(after.rounds.get('r-1')!.tool_calls).toEqual([call('c-1')]);
      });
  });

  it('replays the message at the message level: a new turn, no tool call re-executed', () => {
    const replayed = history(working, tcmd.expire('t-1', LATE), tcmd.startTurn('t-2', 'm-1', LATE));
    const state = replay(replayed);
    expect(state.turns.get('t-2')).toMatchObject({ message_id: 'm-1', round_ids: [], status: 'open' });
    expect(state.rounds.keys()).toEqual(['r-1']);
  });

  it('records nothing for a turn that has already ended', () => {
    given(history(started, tcmd.terminal('t-1', 'completed')))
      .when(tcmd.expire('t-1', LATE))
      .thenNothing();
  });

  it('treats an interrupted terminal from the host the same way', () => {
    given(started)
      .when(tcmd.terminal('t-1', 'interrupted'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TurnTerminal', 'MessageRequeued', 'RecoveryClassified']);
        expect(events[2].data).toMatchObject({
          classification: 'requeued',
          cause: 'host_interrupted',
          interrupt_count: 1,
        });
        expect(after.messages.get('m-1')!.status).toBe('queued');
      });
  });
});

describe('a message interrupted three times', () => {
  const twice = history(
    started,
    tcmd.expire('t-1', at(62)),
    tcmd.startTurn('t-2', 'm-1', at(63)),
    tcmd.expire('t-2', at(65)),
    tcmd.startTurn('t-3', 'm-1', at(66)),
  );

  it('is dropped and quarantined with a failure brief, never retried', () => {
    given(twice)
      .when(tcmd.expire('t-3', at(68)))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TurnTerminal', 'MessageDropped', 'RecoveryClassified', 'BriefRecorded']);
        expect(events[1].data).toMatchObject({ message_id: 'm-1', reason: 'quarantined' });
        expect(events[2].data).toMatchObject({ classification: 'quarantined', interrupt_count: 3 });
        expect(after.briefs.get('brief_turn_t-3')).toMatchObject({ kind: 'failure', work_item_id: 'w-1' });
        expect(after.messages.get('m-1')).toMatchObject({ status: 'dropped', interrupt_count: 3 });
        expect(after.queue).toEqual([]);
        expect(decideNextAction(after, at(69))).not.toMatchObject({ message_id: 'm-1' });
      });
  });

  it('was requeued the first two times', () => {
    expect(replay(twice).messages.get('m-1')).toMatchObject({ status: 'dequeued', interrupt_count: 2 });
  });
});
