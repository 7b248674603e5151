import fc from 'fast-check';
import { evolve, replay } from '../agent/agent.evolve';
import { schedulingIndexOf } from '../agent/scheduling-index.upkeep';
import { type AgentState, reviveAgentState } from '../agent/agent.state';
import { at, registered } from '../testing/fixtures';
import { type Action, actionArb, play, type World } from '../testing/random-actions';
import { streamOf } from '../testing/worker-simulation';
import type { CandidateClass } from '../views/candidate-ranking';
import { candidateClassOf, compareCandidates, rankedCandidates } from '../views/candidates';
import { contextProjection } from '../views/context';
import { decideNextAction } from './decide-next-action';
import { replayDecisions } from './replay-decisions';
import { schedulerProjection } from './scheduler-projection';

const start = (): World => ({ stream: streamOf([registered()]), minute: 60 });
const lives = fc.array(actionArb, { minLength: 1, maxLength: 80, size: 'max' });
const RUNS = { numRuns: 150 };

/** Every state a random life goes through. */
function statesOf(actions: Action[]): { world: World; states: AgentState[] } {
  const states: AgentState[] = [];
  const world = actions.reduce((w, a) => {
    const next = play(w, a);
    states.push(next.stream.state);
    return next;
  }, start());
  return { world, states };
}

describe('decideNextAction over random agent lives (property)', () => {
  it('is total and deterministic on every state a life goes through, snapshots included', () => {
    fc.assert(
      fc.property(lives, fc.nat(120), (actions, minutes) => {
        const now = at(60 + minutes);
        for (const state of statesOf(actions).states) {
          const decision = decideNextAction(state, now);
          expect(decision.reason).not.toBe('projection_invalid');
          expect(decideNextAction(state, now)).toEqual(decision);
          expect(decideNextAction(reviveAgentState(JSON.parse(JSON.stringify(state))), now)).toEqual(decision);
        }
      }),
      RUNS,
    );
  });

  it('reproduces every recorded decision when the stream is replayed', () => {
    fc.assert(
      fc.property(lives, (actions) => {
        const { world } = statesOf([...actions, { t: 'worker' }]);
        const result = replayDecisions(world.stream.events);
        expect(result.mismatches).toEqual([]);
        expect(result.state).toEqual(replay(world.stream.events));
      }),
      RUNS,
    );
  });

  it('keeps the projections total as well', () => {
    fc.assert(
      fc.property(lives, fc.nat(4000), (actions, budget) => {
        const { world } = statesOf(actions);
        expect(() => schedulerProjection(world.stream.state, at(world.minute))).not.toThrow();
        expect(
          contextProjection(world.stream.state, { budget_tokens: budget }).estimated_tokens,
        ).toBeGreaterThanOrEqual(0);
      }),
      RUNS,
    );
  });
});

describe('the scheduling index over random agent lives (property)', () => {
  const CLASSES: CandidateClass[] = [
    'current_runnable',
    'triggered_blocked',
    'queued_runnable',
    'waiting_for_operator',
    'blocked',
    'completed_recent',
  ];

  it('equals a rebuild from the records after every event, and survives a JSON round trip', () => {
    fc.assert(
      fc.property(lives, (actions) => {
        const { world } = statesOf(actions);
        let state = replay([]);
        for (const event of world.stream.events) {
          state = evolve(state, event);
          expect(state.scheduling_index).toEqual(schedulingIndexOf(state));
        }
        expect(JSON.parse(JSON.stringify(state.scheduling_index))).toEqual(state.scheduling_index);
      }),
      RUNS,
    );
  });

  it('ranks every class as the scan of docs/domain-contract.md §2 does (class of each item, then compareCandidates)', () => {
    fc.assert(
      fc.property(lives, (actions) => {
        for (const state of statesOf(actions).states) {
          const compare = compareCandidates(state);
          for (const candidateClass of CLASSES) {
            const scanned = state.work_items
              .values()
              .filter((item) => candidateClassOf(state, item) === candidateClass)
              .sort(compare);
            expect(rankedCandidates(state, candidateClass).map((item) => item.id)).toEqual(
              scanned.map((item) => item.id),
            );
          }
        }
      }),
      RUNS,
    );
  });
});

describe('decideNextAction on states no stream would produce (property)', () => {
  const corruptions: ((s: AgentState) => AgentState)[] = [
    (s) => ({ ...s, current_work_item_id: 'ghost' }),
    (s) => ({ ...s, queue: [...s.queue, 'ghost', 'constructor'] }),
    (s) => ({ ...s, open_turn_id: 'ghost' }),
    (s) => ({
      ...s,
      pending_wake_hint: { source: 's', reason: 'r', body: null, created_at: 'not a time', intent_id: 'ghost' },
    }),
    (s) => ({ ...s, emitted_tick_keys: s.emitted_tick_keys.set('work_queue:continue_active:ghost:1', 'x') }),
    (s) => ({ ...s, posture: 'booting' }),
  ];

  it('stays total and deterministic on dangling references', () => {
    fc.assert(
      fc.property(lives, fc.subarray(corruptions.map((_, i) => i)), fc.nat(120), (actions, picks, minutes) => {
        const state = picks.reduce((s, i) => corruptions[i](s), statesOf(actions).world.stream.state);
        const decision = decideNextAction(state, at(60 + minutes));
        expect(decision.reason).not.toBe('projection_invalid');
        expect(decideNextAction(state, at(60 + minutes))).toEqual(decision);
      }),
      RUNS,
    );
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (value, now) => {
        const decision = decideNextAction(value as AgentState, now);
        expect(typeof decision.kind).toBe('string');
        expect(decideNextAction(value as AgentState, now)).toEqual(decision);
      }),
      { numRuns: 300 },
    );
  });
});
