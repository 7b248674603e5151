import fc from 'fast-check';
import { decideNextAction } from '../scheduler/decide-next-action';
import { at, cmd, created, registered } from '../testing/fixtures';
import { actionArb, play, type World } from '../testing/random-actions';
import { apply, streamOf } from '../testing/worker-simulation';
import { replay } from './agent.evolve';
import { schedulingIndexOf } from './scheduling-index.upkeep';
import { type AgentState, reviveAgentState } from './agent.state';

const start = (): World => ({ stream: streamOf([registered()]), minute: 60 });
const lives = fc.array(actionArb, { minLength: 1, maxLength: 80, size: 'max' });

/** The state as a snapshot stores it and the repository reads it back. */
const roundTrip = (state: AgentState): AgentState => reviveAgentState(JSON.parse(JSON.stringify(state)));

describe('an agent state through JSON and reviveAgentState (a snapshot)', () => {
  it('re-serialises to the same JSON and decides the same, then lives on as the original does (property)', () => {
    fc.assert(
      fc.property(lives, fc.nat(80), fc.nat(120), (actions, cutAt, minutes) => {
        const cut = cutAt % (actions.length + 1);
        const before = actions.slice(0, cut).reduce(play, start());
        const revived = roundTrip(before.stream.state);
        expect(JSON.stringify(revived)).toBe(JSON.stringify(before.stream.state));
        expect(revived).toEqual(before.stream.state);
        expect(revived.scheduling_index).toEqual(schedulingIndexOf(revived));
        expect(decideNextAction(revived, at(60 + minutes))).toEqual(
          decideNextAction(before.stream.state, at(60 + minutes)),
        );

        // The rest of the life, played on the original and on the revived state, records the same events.
        const rest = actions.slice(cut);
        const original = rest.reduce(play, before);
        const fromSnapshot = rest.reduce(play, { ...before, stream: { ...before.stream, state: revived } });
        expect(fromSnapshot.stream.events).toEqual(original.stream.events);
        expect(JSON.stringify(fromSnapshot.stream.state)).toBe(JSON.stringify(original.stream.state));
        const now = at(original.minute);
        expect(decideNextAction(fromSnapshot.stream.state, now)).toEqual(decideNextAction(original.stream.state, now));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps array-index ids (their JSON key order differs from insertion order) and decides the same', () => {
    const stream = ['2', '10', '1', 'constructor', 'w-1'].reduce(
      (s, id) => apply(s, cmd.create(id)),
      streamOf([registered()]),
    );
    const { state } = stream;
    expect(state.work_items.keys()).toEqual(['2', '10', '1', 'constructor', 'w-1']);
    expect(Object.keys(JSON.parse(JSON.stringify(state)).work_items)).toEqual(['1', '2', '10', 'constructor', 'w-1']);
    const revived = roundTrip(state);
    expect(revived.work_items.keys()).toEqual(['1', '2', '10', 'constructor', 'w-1']);
    expect(JSON.stringify(revived)).toBe(JSON.stringify(state));
    expect(revived.scheduling_index).toEqual(state.scheduling_index);
    expect(decideNextAction(revived, at(30))).toEqual(decideNextAction(state, at(30)));
    const next = cmd.pick('10');
    expect(apply({ ...stream, state: revived }, next).events).toEqual(apply(stream, next).events);
  });

  it('reads the JSON of an older fold (plain objects) the same as a fresh replay', () => {
    const events = [registered(), created('w-1'), created('w-2')];
    expect(roundTrip(replay(events))).toEqual(replay(events));
  });
});
