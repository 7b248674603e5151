import fc from 'fast-check';
import { registered } from '../testing/fixtures';
import { actionArb, play, type World } from '../testing/random-actions';
import { streamOf } from '../testing/worker-simulation';
import type { CandidateClass } from './candidate-ranking';
import { candidateClassOf, compareCandidates, rankedCandidates } from './candidates';

const CLASSES: CandidateClass[] = [
  'current_runnable',
  'triggered_blocked',
  'queued_runnable',
  'waiting_for_operator',
  'blocked',
  'completed_recent',
];

describe('rankedCandidates over random agent lives (property)', () => {
  it('orders every class exactly as compareCandidates does', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { minLength: 1, maxLength: 60, size: 'max' }), (actions) => {
        const world = actions.reduce<World>((w, a) => play(w, a), { stream: streamOf([registered()]), minute: 60 });
        const state = world.stream.state;
        for (const cls of CLASSES) {
          const expected = state.work_items
            .values()
            .filter((item) => candidateClassOf(state, item) === cls)
            .sort(compareCandidates(state));
          expect(rankedCandidates(state, cls).map((item) => item.id)).toEqual(expected.map((item) => item.id));
        }
      }),
      { numRuns: 150 },
    );
  });
});
