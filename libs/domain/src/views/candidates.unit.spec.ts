import fc from 'fast-check';
import type { AgentEvent } from '../agent/agent.events';
import { at, completed, created, intent, picked, registered, stateOf, updated } from '../testing/fixtures';
import type { WorkItem } from '../work-item/work-item.state';
import { compareByRecency, recencyComparator } from './candidate-ranking';
import { compareCandidates, lastTriggeredAt, rankedCandidates } from './candidates';

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('queued runnable ranking', () => {
  it.each<[string, AgentEvent[], string[]]>([
    [
      'oldest updated first',
      [created('a', { at: at(1) }), created('b', { at: at(0) }), created('c', { at: at(2) })],
      ['b', 'a', 'c'],
    ],
    [
      'an update moves an item back',
      [created('a', { at: at(0) }), created('b', { at: at(1) }), updated('a', { objective: 'x', revision: 2 }, at(5))],
      ['b', 'a'],
    ],
    [
      'equal updated_at: oldest created first',
      [created('a', { at: at(1) }), created('b', { at: at(0) }), updated('b', { objective: 'x', revision: 2 }, at(1))],
      ['b', 'a'],
    ],
    ['full tie: id ascending', [created('b'), created('c'), created('a')], ['a', 'b', 'c']],
    ['the focus is not queued', [created('a'), created('b'), picked('a')], ['b']],
  ])('%s', (_name, events, expected) => {
    expect(ids(rankedCandidates(stateOf([registered(), ...events]), 'queued_runnable'))).toEqual(expected);
  });
});

describe('triggered blocked ranking', () => {
  const blocked = (id: string, time: string) => [created(id), updated(id, { blocked_by: 'wait', revision: 2 }, time)];
  const trig = (id: string, time: string | null, count = 1) =>
    intent(`i-${id}`, id, { trigger_count: count, last_triggered_at: time });

  it.each<[string, AgentEvent[], ReturnType<typeof trig>[], string[]]>([
    [
      'most recently triggered first',
      [...blocked('a', at(1)), ...blocked('b', at(1))],
      [trig('a', at(5)), trig('b', at(9))],
      ['b', 'a'],
    ],
    [
      'same trigger time: most recently updated first',
      [...blocked('a', at(1)), ...blocked('b', at(2))],
      [trig('a', at(5)), trig('b', at(5))],
      ['b', 'a'],
    ],
    [
      'full tie: id ascending',
      [...blocked('b', at(1)), ...blocked('a', at(1))],
      [trig('b', at(5)), trig('a', at(5))],
      ['a', 'b'],
    ],
    [
      'an untriggered intent does not make it a candidate',
      [...blocked('a', at(1)), ...blocked('b', at(1))],
      [trig('a', null, 0), trig('b', at(5))],
      ['b'],
    ],
  ])('%s', (_name, events, intents, expected) => {
    expect(ids(rankedCandidates(stateOf([registered(), ...events], intents), 'triggered_blocked'))).toEqual(expected);
  });

  it("uses the newest trigger among the item's active intents", () => {
    const state = stateOf(
      [registered(), ...blocked('a', at(1))],
      [
        intent('i-1', 'a', { trigger_count: 1, last_triggered_at: at(3) }),
        intent('i-2', 'a', { trigger_count: 1, last_triggered_at: at(7) }),
        intent('i-3', 'a', { trigger_count: 1, last_triggered_at: at(9), status: 'cancelled' }),
      ],
    );
    expect(lastTriggeredAt(state, state.work_items.get('a')!)).toBe(at(7));
  });
});

describe('the other classes rank by most recent update, then id', () => {
  it.each<[string, 'blocked' | 'completed_recent' | 'waiting_for_operator', AgentEvent[], string[]]>([
    [
      'blocked',
      'blocked',
      [
        created('a'),
        created('b'),
        created('c'),
        updated('a', { blocked_by: 'x', revision: 2 }, at(1)),
        updated('b', { blocked_by: 'x', revision: 2 }, at(3)),
        updated('c', { blocked_by: 'x', revision: 2 }, at(1)),
      ],
      ['b', 'a', 'c'],
    ],
    [
      'completed',
      'completed_recent',
      [created('a'), created('b'), completed('a', 2, at(5)), completed('b', 2, at(4))],
      ['a', 'b'],
    ],
    [
      'waiting for operator',
      'waiting_for_operator',
      [created('b', { plan_status: 'needs_input' }), created('a', { plan_status: 'needs_input' })],
      ['a', 'b'],
    ],
  ])('%s', (_name, candidateClass, events, expected) => {
    expect(ids(rankedCandidates(stateOf([registered(), ...events]), candidateClass))).toEqual(expected);
  });
});

describe('candidate ranking across classes', () => {
  it('follows the scheduler order: current, triggered, queued, waiting for operator, blocked, completed', () => {
    const events: AgentEvent[] = [
      registered(),
      created('done'),
      completed('done', 2),
      created('blk'),
      updated('blk', { blocked_by: 'x', revision: 2 }),
      created('ops', { plan_status: 'needs_input' }),
      created('que'),
      created('trg'),
      updated('trg', { blocked_by: 'x', revision: 2 }),
      created('cur'),
      picked('cur'),
    ];
    const state = stateOf(events, [intent('i', 'trg', { trigger_count: 1, last_triggered_at: at(4) })]);
    const sorted = state.work_items.values().sort(compareCandidates(state));
    expect(ids(sorted)).toEqual(['cur', 'trg', 'que', 'ops', 'blk', 'done']);
  });
});

describe('recencyComparator (stamps parsed once per sort)', () => {
  // Stamps that collide in milliseconds, differ only below them, or in their offset.
  const stamp = fc.constantFrom(
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00.000001Z',
    '2026-01-01T01:00:00+01:00',
    '2026-01-01T00:00:01Z',
    '2025-12-31T23:59:59.999Z',
    '2026-01-01T00:00:00.5Z',
    'not a time',
  );
  const items = fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'w-1', 'w-10', 'w-2'), updated_at: stamp }), {
    maxLength: 40,
  });

  it('orders exactly as compareByRecency', () => {
    fc.assert(
      fc.property(items, (list) => {
        const work = list.map((item) => item as unknown as WorkItem);
        expect([...work].sort(recencyComparator())).toEqual([...work].sort(compareByRecency));
      }),
      { numRuns: 300 },
    );
  });
});
