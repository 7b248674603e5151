import { DueAgenda } from './due-agenda';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

describe('DueAgenda: one timer for the soonest deadline of all agents', () => {
  let due: string[][];
  let agenda: DueAgenda;

  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
    due = [];
    agenda = new DueAgenda(
      (ids) => due.push(ids),
      () => Date.now(),
    );
  });
  afterEach(() => {
    agenda.stop();
    jest.useRealTimers();
  });

  it('hands over the agents due at the soonest deadline, then re-arms for the next one', () => {
    agenda.set('a', iso(5_000));
    agenda.set('b', iso(1_000));
    agenda.set('c', iso(1_000));
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(999);
    expect(due).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(due).toEqual([['b', 'c']]);
    expect(agenda.size()).toBe(1);
    jest.advanceTimersByTime(4_000);
    expect(due).toEqual([['b', 'c'], ['a']]);
    expect(agenda.size()).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('forgets an agent set to null and moves an agent whose deadline changes', () => {
    agenda.set('a', iso(1_000));
    agenda.set('b', iso(2_000));
    agenda.set('a', null);
    agenda.set('b', iso(3_000));
    jest.advanceTimersByTime(2_999);
    expect(due).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(due).toEqual([['b']]);
  });

  it('fires at once for a deadline already past', () => {
    agenda.set('late', iso(-60_000));
    jest.advanceTimersByTime(0);
    expect(due).toEqual([['late']]);
  });

  it('waits at most ~24.8 days per timer and simply re-arms when a far deadline is not due yet', () => {
    agenda.set('far', iso(40 * 86_400_000));
    jest.advanceTimersByTime(2 ** 31 - 1);
    expect(due).toEqual([]);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(40 * 86_400_000 - (2 ** 31 - 1));
    expect(due).toEqual([['far']]);
  });

  it('keeps no timer after stop', () => {
    agenda.set('a', iso(1_000));
    agenda.stop();
    jest.advanceTimersByTime(5_000);
    expect(due).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
