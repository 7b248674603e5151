import fc from 'fast-check';
import { IdempotencyWindow } from './idempotency-window';

/** The window as it was first written (a Map copied per call): the model the log must match. */
class CopyingLog {
  constructor(
    private readonly limit: number,
    readonly entries = new Map<string, { first: bigint; last: bigint }>(),
  ) {}
  withEvents(pairs: Array<[string, bigint]>): CopyingLog {
    const entries = new Map(this.entries);
    for (const [commandId, revision] of pairs) {
      const existing = entries.get(commandId);
      entries.delete(commandId);
      entries.set(commandId, { first: existing ? existing.first : revision, last: revision });
    }
    while (entries.size > this.limit) entries.delete(entries.keys().next().value as string);
    return new CopyingLog(this.limit, entries);
  }
  toJSON() {
    return [...this.entries].map(([id, range]) => [id, range.first.toString(), range.last.toString()]);
  }
}

const IDS = Array.from({ length: 12 }, (_, i) => `c-${i}`);
// One call = the pairs of one command (its id at its first and last revision), or a few ids at once.
const call = fc.array(fc.constantFrom(...IDS), { minLength: 1, maxLength: 3 });

describe('IdempotencyWindow', () => {
  it('keeps exactly the window a Map copied per command keeps, at every step (ids, ranges, order, eviction)', () => {
    fc.assert(
      fc.property(
        fc.array(call, { maxLength: 120 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 6 }),
        (calls, limit, compactAfter) => {
          let log = IdempotencyWindow.empty({ limit, compactAfter });
          let model = new CopyingLog(limit);
          let revision = 0n;
          for (const ids of calls) {
            const pairs = ids.map((id): [string, bigint] => [id, revision++]);
            [log, model] = [log.withEvents(pairs), model.withEvents(pairs)];
            expect(log.toJSON()).toEqual(model.toJSON());
            for (const id of IDS) expect(log.get(id)).toEqual(model.entries.get(id));
            expect(IdempotencyWindow.fromJSON(log.toJSON(), { limit, compactAfter }).toJSON()).toEqual(model.toJSON());
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives every log derived from an older one (a refused append, a retry) the window the model gives it, and leaves the older ones as they were', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(call, fc.nat()), { maxLength: 80 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 6 }),
        (steps, limit, compactAfter) => {
          // Every log so far beside its model: each step derives a new one from any of them.
          const logs = [IdempotencyWindow.empty({ limit, compactAfter })];
          const models = [new CopyingLog(limit)];
          const seen = [JSON.stringify(logs[0].toJSON())];
          let revision = 0n;
          for (const [ids, pick] of steps) {
            const from = pick % logs.length;
            const pairs = ids.map((id): [string, bigint] => [id, revision++]);
            logs.push(logs[from].withEvents(pairs));
            models.push(models[from].withEvents(pairs));
            seen.push(JSON.stringify(logs[logs.length - 1].toJSON()));
            expect(logs[logs.length - 1].toJSON()).toEqual(models[models.length - 1].toJSON());
          }
          logs.forEach((log, i) => {
            expect(JSON.stringify(log.toJSON())).toBe(seen[i]);
            for (const id of IDS) expect(log.get(id)).toEqual(models[i].entries.get(id));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves the log it was derived from as it was (a refused append keeps the old window)', () => {
    const base = IdempotencyWindow.empty({ limit: 3, compactAfter: 2 }).withEvents([
      ['a', 0n],
      ['b', 1n],
      ['c', 2n],
    ]);
    const before = base.toJSON();
    base.withEvents([
      ['d', 3n],
      ['e', 4n],
    ]);
    base.withEvents([['a', 5n]]);
    expect(base.toJSON()).toEqual(before);
    expect(base.has('a')).toBe(true);
  });

  it('holds 1000 ids by default: the 1001st new id pushes the oldest out', () => {
    let log = IdempotencyWindow.empty();
    for (let i = 0; i < 1001; i++) log = log.withEvents([[`k-${i}`, BigInt(i)]]);
    expect(log.has('k-0')).toBe(false);
    expect(log.get('k-1')).toEqual({ first: 1n, last: 1n });
    expect(log.toJSON()).toHaveLength(1000);
  });

  it('keeps the fingerprint of a command through compaction, snapshots and later touches', () => {
    let log = IdempotencyWindow.empty({ compactAfter: 2 });
    log = log.withEvents([
      ['a', 0n, 'sha256:a'],
      ['a', 1n, 'sha256:a'],
      ['old', 2n],
    ]);
    for (let i = 0; i < 5; i++) log = log.withEvents([[`k-${i}`, BigInt(3 + i)]]);
    expect(log.get('a')).toEqual({ first: 0n, last: 1n, fingerprint: 'sha256:a' });
    const json = log.toJSON();
    expect(json[0]).toEqual(['a', '0', '1', 'sha256:a']);
    expect(json[1]).toEqual(['old', '2', '2']);
    const revived = IdempotencyWindow.fromJSON([...json, ['legacy', '9', '9', null]]);
    expect(revived.get('a')).toEqual({ first: 0n, last: 1n, fingerprint: 'sha256:a' });
    expect(revived.get('legacy')).toEqual({ first: 9n, last: 9n });
    expect(revived.withEvents([['a', 10n]]).get('a')).toEqual({ first: 0n, last: 10n, fingerprint: 'sha256:a' });
  });
});
