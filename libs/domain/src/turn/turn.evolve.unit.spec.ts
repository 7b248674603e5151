import { evolve, replay } from '../agent/agent.evolve';
import { reviveAgentState } from '../agent/agent.state';
import { at, cmd, created, picked, registered } from '../testing/fixtures';
import { call, nextDecision, tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';

const life = history(
  [registered(), created('w-1'), created('w-2'), picked('w-1')],
  wcmd.enqueue('m-1'),
  tcmd.startTurn('t-1', 'm-1'),
  tcmd.round('t-1', 'r-1', 'Done.', [call('c-1')]),
  tcmd.completeIn('w-1', 'r-1'),
  tcmd.round('t-1', 'r-2', 'next'),
  tcmd.heartbeat('t-1', at(61)),
  tcmd.terminal('t-1', 'completed', 'Bye.', at(62)),
);

describe('the state of turns, rounds, briefs and decisions', () => {
  it('stays JSON: a snapshot round-trips to an equal state', () => {
    const state = replay(history(life, tcmd.recordDecision(nextDecision(life))));
    const revived = reviveAgentState(JSON.parse(JSON.stringify(state)));
    expect(revived).toEqual(state);
    expect(JSON.stringify(revived)).toBe(JSON.stringify(state));
    expect(state.last_decision?.decision.kind).toBe('EmitSystemTick');
  });

  it('replays a tail onto a snapshot like the whole stream', () => {
    const cut = 8;
    expect(replay(life.slice(cut), reviveAgentState(JSON.parse(JSON.stringify(replay(life.slice(0, cut))))))).toEqual(
      replay(life),
    );
  });

  it('keeps the identity of every record an event does not change (projectors diff by reference)', () => {
    const before = replay(life.slice(0, -1));
    const last = life[life.length - 1];
    // The final result brief was suppressed by the promotion: the turn's last event settles its message.
    expect(last.type).toBe('MessageProcessed');
    const after = evolve(before, last);
    for (const key of [
      'work_items',
      'rounds',
      'turns',
      'briefs',
      'waiting_intents',
      'delivery_summaries',
      'emitted_tick_keys',
    ] as const) {
      expect(after[key]).toBe(before[key]);
    }
    expect(after.messages.get('m-1')).not.toBe(before.messages.get('m-1'));
  });

  it('keeps the other rounds and items when a round is recorded or promoted', () => {
    const withOne = replay(history(life, wcmd.enqueue('m-2'), tcmd.startTurn('t-2', 'm-2')));
    const next = history(
      life,
      wcmd.enqueue('m-2'),
      tcmd.startTurn('t-2', 'm-2'),
      cmd.pick('w-2'),
      tcmd.round('t-2', 'r-3', 'x'),
    );
    const after = replay(next);
    expect(after.rounds.get('r-1')).toEqual(withOne.rounds.get('r-1'));
    const state = replay(next.slice(0, -1));
    const evolved = evolve(state, next[next.length - 1]);
    expect(evolved.rounds.get('r-1')).toBe(state.rounds.get('r-1'));
    expect(evolved.work_items).toBe(state.work_items);
    expect(evolved.messages).toBe(state.messages);
  });
});
