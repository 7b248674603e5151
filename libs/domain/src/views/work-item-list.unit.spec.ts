import type { AgentEvent } from '../agent/agent.events';
import { at, completed, created, intent, picked, registered, stateOf, updated } from '../testing/fixtures';
import { clampListLimit, listWorkItems, parseListFilter, type WorkItemListFilter } from './work-item-list';

// One agent with an item of every kind (updated_at minute in parentheses):
// q-old (1), q-new (2): queued · blk (3): blocked · ops (4): needs_input · cur (5): the focus
// trg (6), trg2 (6): blocked with a triggered intent (trg2 triggered later) · done (7): completed
const events: AgentEvent[] = [
  registered(),
  created('q-old', { at: at(1) }),
  created('q-new', { at: at(2) }),
  created('blk'),
  updated('blk', { blocked_by: 'x', revision: 2 }, at(3)),
  created('ops', { plan_status: 'needs_input', at: at(4) }),
  created('cur', { at: at(5) }),
  created('trg'),
  updated('trg', { blocked_by: 'x', revision: 2 }, at(6)),
  created('trg2'),
  updated('trg2', { blocked_by: 'y', revision: 2 }, at(6)),
  created('done'),
  completed('done', 2, at(7)),
  picked('cur'),
];
const intents = [
  intent('i-1', 'trg', { trigger_count: 1, last_triggered_at: at(20) }),
  intent('i-2', 'trg2', { trigger_count: 3, last_triggered_at: at(30) }),
  intent('i-3', 'done', { trigger_count: 1, last_triggered_at: at(40), status: 'cancelled' }),
];
const state = stateOf(events, intents);

describe('ListWorkItems filters', () => {
  it.each<[WorkItemListFilter, string[]]>([
    ['all', ['done', 'trg', 'trg2', 'cur', 'ops', 'blk', 'q-new', 'q-old']],
    ['open', ['trg', 'trg2', 'cur', 'ops', 'blk', 'q-new', 'q-old']],
    ['completed', ['done']],
    ['current', ['cur']],
    ['queued', ['q-old', 'q-new']],
    ['blocked', ['trg', 'trg2', 'blk']],
    ['waiting_for_operator', ['ops']],
    ['runnable', ['cur', 'q-new', 'q-old']],
    ['triggered', ['trg2', 'trg']],
  ])('%s', (filter, expected) => {
    const list = listWorkItems(state, { filter });
    expect(list.items.map((item) => item.id)).toEqual(expected);
    expect(list.total).toBe(expected.length);
  });

  it('defaults to all', () => {
    expect(listWorkItems(state).total).toBe(8);
  });

  it('current is empty when nothing is focused', () => {
    expect(listWorkItems(stateOf(events.slice(0, -1)), { filter: 'current' })).toEqual({ items: [], total: 0 });
  });

  it('blocked leaves out a blocked item that is the focus (inspection)', () => {
    const inspected = stateOf([...events, picked('blk', 'cur', at(9))]);
    expect(listWorkItems(inspected, { filter: 'blocked' }).items.map((i) => i.id)).toEqual(['trg', 'trg2']);
    expect(listWorkItems(inspected, { filter: 'queued' }).items.map((i) => i.id)).toEqual(['q-old', 'q-new', 'cur']);
  });

  it('refuses an unknown filter', () => {
    expect(() => listWorkItems(state, { filter: 'urgent' as WorkItemListFilter })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });
});

describe('ListWorkItems limit', () => {
  it('cuts the items but total counts every match', () => {
    const list = listWorkItems(state, { filter: 'all', limit: 2 });
    expect(list.items.map((i) => i.id)).toEqual(['done', 'trg']);
    expect(list.total).toBe(8);
  });

  it.each([
    [undefined, 20],
    [0, 1],
    [-5, 1],
    [1, 1],
    [20, 20],
    [100, 100],
    [101, 100],
    [1000, 100],
    [2.7, 2],
    [NaN, 20],
  ])('limit %p becomes %p', (limit, expected) => {
    expect(clampListLimit(limit)).toBe(expected);
  });

  it('returns 20 items by default', () => {
    const many = stateOf([
      registered(),
      ...Array.from({ length: 25 }, (_, i) => created(`w-${String(i).padStart(2, '0')}`)),
    ]);
    const list = listWorkItems(many);
    expect(list.items).toHaveLength(20);
    expect(list.total).toBe(25);
  });
});

describe('parseListFilter', () => {
  it.each([
    [undefined, 'all'],
    ['', 'all'],
    ['queued', 'queued'],
    ['triggered', 'triggered'],
  ])('%p -> %p', (value, expected) => {
    expect(parseListFilter(value)).toBe(expected);
  });
});
