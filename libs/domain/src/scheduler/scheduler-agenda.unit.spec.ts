import { replay } from '../agent/agent.evolve';
import { at, cmd, registered } from '../testing/fixtures';
import { streamOf, workerStep } from '../testing/worker-simulation';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { decideNextAction } from './decide-next-action';
import { schedulerAgendaOf } from './scheduler-agenda';

const NOW = at(60);
/** The worker's steps at `now` until the decision rests (what the worker's settle does). */
const settled = (events: ReturnType<typeof history>, now = NOW) => {
  let stream = streamOf(events);
  for (let i = 0; i < 16; i++) {
    const next = workerStep(stream, now);
    if (next.events.length === stream.events.length) break;
    stream = next;
  }
  return stream;
};

describe('schedulerAgendaOf: what a starting scheduler must look at', () => {
  it('given no registered agent, then there is no entry', () => {
    expect(schedulerAgendaOf(replay([]), NOW)).toBeNull();
  });

  it('given a registered agent the scheduler never looked at, then it is undecided', () => {
    expect(schedulerAgendaOf(replay([registered()]), NOW)).toEqual({ next_due_at: null, undecided: true });
  });

  it('given the worker settled the agent, then it is decided and its next deadline is nextDueAt', () => {
    const stream = settled(history([registered()], wcmd.createTimer('t-1', { fire_at: at(90) })));
    expect(schedulerAgendaOf(stream.state, NOW)).toEqual({ next_due_at: at(90), undecided: false });
  });

  it('given a settled agent, when a caller adds work, then it is undecided again', () => {
    const stream = settled(history([registered()]));
    expect(schedulerAgendaOf(stream.state, NOW)!.undecided).toBe(false);
    const after = history(stream.events, cmd.create('w-1'));
    expect(schedulerAgendaOf(replay(after), NOW)!.undecided).toBe(true);
  });

  it('given a tick decision recorded but not yet carried out (a crash in between), then it is undecided', () => {
    const events = history([registered()], cmd.create('w-1'));
    const decision = decideNextAction(replay(events), NOW);
    expect(decision.kind).toBe('EmitSystemTick');
    const recorded = history(events, tcmd.recordDecision(decision, NOW));
    expect(schedulerAgendaOf(replay(recorded), NOW)!.undecided).toBe(true);
  });

  it('given a settled agent whose work waits for a host, then it is decided (nothing more for the worker to do)', () => {
    const stream = settled(history([registered()], cmd.create('w-1')));
    expect(decideNextAction(stream.state, NOW).kind).toBe('StartModelTurn');
    expect(schedulerAgendaOf(stream.state, NOW)!.undecided).toBe(false);
  });
});
