import fc from 'fast-check';
import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import { registered } from '../testing/fixtures';
import { type Action, actionArb, play, type World } from '../testing/random-actions';
import { streamOf } from '../testing/worker-simulation';
import type { WorkItem } from '../work-item/work-item.state';
import {
  CANDIDATE_KEYS,
  CANDIDATE_RANKING,
  type CandidateClass,
  compareByKeys,
  compareByRecency,
  compareQueued,
  type FieldValue,
  memoizedInstants,
  recencyComparator,
} from './candidate-ranking';
import { candidateClassOf, compareCandidates, lastTriggeredAt, rankedCandidates } from './candidates';

// The oracle is the contract as ADR 0002 §13 and docs/domain-contract.md state it, written out by hand, not the
// declaration: across classes the scheduler's order; inside a class, then id ascending,
// triggered by last_triggered_at desc (nulls last) then updated_at desc, queued by updated_at asc
// then created_at asc, the rest by updated_at desc. Stamps compare as compareInstants does.

type Compare<T> = (a: T, b: T) => number;
type Ranked = { id: string; updated_at: string; created_at: string; last_triggered_at: string | null };

const SCHEDULER_ORDER: CandidateClass[] = [
  'current_runnable',
  'triggered_blocked',
  'queued_runnable',
  'waiting_for_operator',
  'blocked',
  'completed_recent',
];

const byId: Compare<Ranked> = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const descNullsLast = (x: string | null, y: string | null): number =>
  x === y ? 0 : x === null ? 1 : y === null ? -1 : compareInstants(y, x);

const contract: Record<'triggered' | 'queued' | 'rest', Compare<Ranked>> = {
  triggered: (a, b) =>
    descNullsLast(a.last_triggered_at, b.last_triggered_at) ||
    compareInstants(b.updated_at, a.updated_at) ||
    byId(a, b),
  queued: (a, b) =>
    compareInstants(a.updated_at, b.updated_at) || compareInstants(a.created_at, b.created_at) || byId(a, b),
  rest: (a, b) => compareInstants(b.updated_at, a.updated_at) || byId(a, b),
};
const contractFor = (cls: CandidateClass): Compare<Ranked> =>
  cls === 'triggered_blocked' ? contract.triggered : cls === 'queued_runnable' ? contract.queued : contract.rest;

const rankedOf = (state: AgentState, item: WorkItem): Ranked => ({
  id: item.id,
  updated_at: item.updated_at,
  created_at: item.created_at,
  last_triggered_at: lastTriggeredAt(state, item),
});

function contractOrder(state: AgentState): Compare<WorkItem> {
  return (a, b) => {
    const [x, y] = [candidateClassOf(state, a), candidateClassOf(state, b)];
    if (x !== y) return SCHEDULER_ORDER.indexOf(x) - SCHEDULER_ORDER.indexOf(y);
    return contractFor(x)(rankedOf(state, a), rankedOf(state, b));
  };
}

const sign = (n: number): number => Math.sign(n) || 0;

/** Every state a random life goes through. */
function statesOf(actions: Action[]): AgentState[] {
  const states: AgentState[] = [];
  actions.reduce<World>(
    (w, a) => {
      const next = play(w, a);
      states.push(next.stream.state);
      return next;
    },
    { stream: streamOf([registered()]), minute: 60 },
  );
  return states;
}

const lives = fc.array(actionArb, { minLength: 1, maxLength: 60, size: 'max' });
const ids = (items: { id: string }[]): string[] => items.map((item) => item.id);

describe('the candidate ranking declared once (property)', () => {
  it('declares the classes in the scheduler order, each ending with id ascending', () => {
    expect(CANDIDATE_RANKING.map((ranked) => ranked.class)).toEqual(SCHEDULER_ORDER);
    for (const { keys } of CANDIDATE_RANKING) expect(keys[keys.length - 1]).toEqual({ field: 'id', direction: 'asc' });
  });

  it('derives compareCandidates, rankedCandidates and the scheduling index order that the contract spells out, on random agent lives', () => {
    fc.assert(
      fc.property(lives, (actions) => {
        for (const state of statesOf(actions)) {
          const items = state.work_items.values();
          const [derived, oracle] = [compareCandidates(state), contractOrder(state)];
          for (const a of items) for (const b of items) expect(sign(derived(a, b))).toBe(sign(oracle(a, b)));
          for (const cls of SCHEDULER_ORDER) {
            const expected = items.filter((item) => candidateClassOf(state, item) === cls).sort(oracle);
            expect(ids(rankedCandidates(state, cls))).toEqual(ids(expected));
          }
          const runnable = state.scheduling_index.runnable.map((id) => state.work_items.get(id)!);
          expect(ids(runnable)).toEqual(
            ids([...runnable].sort((a, b) => contract.queued(rankedOf(state, a), rankedOf(state, b)))),
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  // Stamps that collide in milliseconds, differ only below them or in their offset, and one no parser reads.
  const stamp = fc.constantFrom(
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00.000001Z',
    '2026-01-01T01:00:00+01:00',
    '2026-01-01T00:00:00.0009+00:00',
    '2026-01-01T00:00:01Z',
    '2025-12-31T23:59:59.999Z',
    '2026-01-01T00:00:00.5Z',
    'not a time',
  );
  const ranked: fc.Arbitrary<Ranked> = fc.record({
    id: fc.constantFrom('a', 'b', 'B', 'w-1', 'w-10', 'w-2', 'w_1'),
    updated_at: stamp,
    created_at: stamp,
    last_triggered_at: fc.option(stamp),
  });
  const asItem = (r: Ranked): WorkItem => r as unknown as WorkItem;
  const value: FieldValue = (item, field) => (item as unknown as Ranked)[field];

  it("compares every class's keys as the contract does, on stamps of every shape (each comparator and the memoized one)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCHEDULER_ORDER), ranked, ranked, (cls, a, b) => {
        const oracle = sign(contractFor(cls)(a, b));
        expect(sign(compareByKeys(CANDIDATE_KEYS[cls], value)(asItem(a), asItem(b)))).toBe(oracle);
        expect(sign(compareByKeys(CANDIDATE_KEYS[cls], value, memoizedInstants())(asItem(a), asItem(b)))).toBe(oracle);
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the item-only comparators (queued, recency) the contract's order, and sorts as it does", () => {
    fc.assert(
      fc.property(fc.array(ranked, { maxLength: 30 }), (list) => {
        const work = list.map(asItem);
        const sortedBy = (compare: Compare<Ranked>) => [...list].sort(compare).map(asItem);
        expect([...work].sort(compareQueued)).toEqual(sortedBy(contract.queued));
        expect([...work].sort(compareByRecency)).toEqual(sortedBy(contract.rest));
        expect([...work].sort(recencyComparator())).toEqual(sortedBy(contract.rest));
      }),
      { numRuns: 300 },
    );
  });
});
