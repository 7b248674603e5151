import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { initialAgentState } from '../agent/agent.state';
import { at, cmd, registered, todo } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { wcmd } from '../testing/waiting-fixtures';
import { activation, apply, type Stream, streamOf, workerStep } from '../testing/worker-simulation';
import { replayDecisions } from './replay-decisions';

/** A day in the life: work items, ticks, a turn that completes with a report, a wait, a timer, sleep. */
function recordedHistory(): AgentEvent[] {
  let s: Stream = streamOf([registered()]);
  s = apply(s, cmd.create('w-1', { todo_list: [todo('fix')] }));
  s = apply(s, cmd.create('w-2'));
  s = workerStep(s, at(61));
  const turn = activation(s, at(62));
  s = apply(turn.stream, { ...cmd.pick('w-2'), meta: { now: at(62), command_id: 'c' } });
  s = apply(s, tcmd.round(turn.turn_id ?? '', 'r-1', 'Done: fixed.', [], at(63)));
  s = apply(s, tcmd.completeIn('w-2', 'r-1', at(63)));
  s = apply(s, tcmd.terminal(turn.turn_id ?? '', 'completed', 'Done: fixed.', at(64)));
  s = workerStep(s, at(65));
  s = apply(s, wcmd.createTimer('tm-1', { fire_at: at(90) }, at(66)));
  s = apply(s, { ...cmd.update('w-1', { blocked_by: 'later' }), meta: { now: at(66), command_id: 'c' } });
  for (const minute of [67, 68, 91, 92, 93]) s = workerStep(s, at(minute));
  return s.events;
}

describe('replayDecisions on a recorded history', () => {
  const events = recordedHistory();

  it('reproduces every recorded decision', () => {
    const result = replayDecisions(events);
    expect(result.entries).toHaveLength(5);
    expect(result.mismatches).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.state).toEqual(replay(events));
    expect(result.entries.map((e) => `${e.recorded?.kind}:${e.recorded?.reason}`)).toEqual([
      'EmitSystemTick:queued_available',
      'StartModelTurn:scheduler_tick',
      'Sleep:no_runnable_work',
      'WaitForTimer:waiting_for_timer',
      'StartModelTurn:timer_fire',
    ]);
  });

  it('reports the entry and the fields that differ when a recorded decision was not what the state implies', () => {
    const index = events.findIndex((e) => e.type === 'SchedulerDecisionRecorded');
    const tampered = events.map((e, i) =>
      i === index && e.type === 'SchedulerDecisionRecorded'
        ? { ...e, data: { ...e.data, decision: { ...e.data.decision, reason: 'made_up' } } }
        : e,
    );
    const result = replayDecisions(tampered);
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual([expect.objectContaining({ index, revision: index, differences: ['reason'] })]);
    expect(result.mismatches[0].recomputed.reason).toBe(result.entries[0].recomputed.reason);
  });

  it('reports an unreadable recorded decision instead of throwing', () => {
    const broken = [...events, { type: 'SchedulerDecisionRecorded', data: { at: 42 } }];
    expect(replayDecisions(broken).mismatches.at(-1)).toMatchObject({ recorded: null, differences: ['decision'] });
  });

  it('starts from a snapshot as well as from the beginning', () => {
    const cut = Math.floor(events.length / 2);
    const fromSnapshot = replayDecisions(events.slice(cut), replay(events.slice(0, cut)));
    const whole = replayDecisions(events);
    expect(fromSnapshot.ok).toBe(true);
    expect(fromSnapshot.entries.map((e) => e.revision)).toEqual(
      whole.entries.filter((e) => e.index >= cut).map((e) => e.revision),
    );
  });

  it('is empty for a stream without decisions', () => {
    expect(replayDecisions([registered()], initialAgentState())).toMatchObject({ entries: [], ok: true });
  });
});
