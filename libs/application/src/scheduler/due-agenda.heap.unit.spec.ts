import fc from 'fast-check';
import { DueAgenda } from './due-agenda';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

type Op =
  | { kind: 'set'; agent: string; at: number | null }
  | { kind: 'offer'; agent: string; at: number }
  | { kind: 'forget'; agent: string }
  | { kind: 'advance'; ms: number };

const agent = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), agent, at: fc.option(fc.integer({ min: -50, max: 500 })) }),
  fc.record({ kind: fc.constant('offer' as const), agent, at: fc.integer({ min: -50, max: 500 }) }),
  fc.record({ kind: fc.constant('forget' as const), agent }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 120 }) }),
);

describe('DueAgenda as a heap: the same hand-overs as a scan of every entry', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  it('given any sequence of sets, offers, forgets and time passing, then each agent is handed over exactly when the model says', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        jest.setSystemTime(T0);
        const fired: string[][] = [];
        const agenda = new DueAgenda(
          (ids) => fired.push(ids),
          () => Date.now(),
        );
        const model = new Map<string, number>();
        const expected: string[][] = [];
        let now = T0;
        const modelFire = () => {
          // Due entries leave in (deadline, id) order; the agenda hands over everything due at one wake-up.
          const ready = [...model].filter(([, at]) => at <= now).sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
          ready.forEach(([id]) => model.delete(id));
          return ready.map(([id]) => id);
        };
        for (const step of ops) {
          if (step.kind === 'set') {
            agenda.set(step.agent, step.at === null ? null : iso(step.at));
            if (step.at === null) model.delete(step.agent);
            else model.set(step.agent, T0 + step.at);
          } else if (step.kind === 'offer') {
            agenda.offer(step.agent, iso(step.at));
            const current = model.get(step.agent);
            if (current === undefined || T0 + step.at < current) model.set(step.agent, T0 + step.at);
          } else if (step.kind === 'forget') {
            agenda.forget((id) => id === step.agent);
            model.delete(step.agent);
          } else {
            // One millisecond at a time: the model fires at the same instants as the agenda's timer.
            for (let i = 0; i < step.ms; i++) {
              jest.advanceTimersByTime(1);
              now += 1;
              const ready = modelFire();
              if (ready.length > 0) expected.push(ready);
            }
          }
          expect(agenda.size()).toBe(model.size);
        }
        // Deadlines already past when set fire on the next tick: flush them on both sides.
        jest.advanceTimersByTime(0);
        const ready = modelFire();
        if (ready.length > 0) expected.push(ready);
        expect(fired.flat()).toEqual(expected.flat());
        agenda.stop();
      }),
      { numRuns: 150 },
    );
  });

  it('given many superseded deadlines, then the heap is compacted and only the latest deadline of each agent fires', () => {
    const fired: string[][] = [];
    const agenda = new DueAgenda(
      (ids) => fired.push(ids),
      () => Date.now(),
    );
    for (let round = 0; round < 1_000; round++) for (const id of ['a', 'b', 'c']) agenda.set(id, iso(10_000 - round));
    expect(agenda.size()).toBe(3);
    expect((agenda as unknown as { heap: unknown[] }).heap.length).toBeLessThanOrEqual(2 * 3 + 64 + 1);
    jest.advanceTimersByTime(9_000);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([['a', 'b', 'c']]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('given an offer later than the deadline it holds, then the earlier deadline stays', () => {
    const fired: string[][] = [];
    const agenda = new DueAgenda(
      (ids) => fired.push(ids),
      () => Date.now(),
    );
    agenda.set('a', iso(1_000));
    agenda.offer('a', iso(5_000));
    expect(agenda.dueAt('a')).toBe(T0 + 1_000);
    agenda.offer('a', iso(500));
    jest.advanceTimersByTime(500);
    expect(fired).toEqual([['a']]);
    agenda.stop();
  });
});
