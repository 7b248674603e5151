import fc from 'fast-check';
import { RecordMap, valuesInObjectOrder } from './record-map';

type Value = { n: number };
type Op =
  { kind: 'set'; id: string; n: number } | { kind: 'same'; id: string } | { kind: 'update'; id: string; n: number };

/** Prototype members, array indexes, empty, unicode, and two pairs of ids with equal hashes (one collision bucket each). */
const SPECIAL_IDS = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '1',
  '0',
  '42',
  '007',
  '',
  'é',
  '日本',
  '🙂',
  'a',
  'w-57649',
  'w-1721240',
  'w-57648',
  'w-1721241',
];
const idArb = fc.oneof(
  fc.constantFrom(...SPECIAL_IDS),
  fc.string({ maxLength: 4 }),
  fc.nat(60).map(String),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('set' as const), id: idArb, n: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('same' as const), id: idArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('update' as const), id: idArb, n: fc.nat(9) }) },
);
/** Long enough to grow the vector past one and two levels (32, 1,024 entries). */
const opsArb = fc.array(opArb, { maxLength: 400 });

/** Runs `ops` on both a RecordMap and a Map model, checking `set`/`update` identity on the way. */
function run(ops: Op[], map = RecordMap.empty<Value>(), model = new Map<string, Value>()) {
  for (const op of ops) {
    if (op.kind === 'set') {
      const value = { n: op.n };
      map = map.set(op.id, value);
      model.set(op.id, value);
    } else if (op.kind === 'same') {
      const current = model.get(op.id);
      if (current !== undefined) expect(map.set(op.id, current)).toBe(map);
    } else {
      const next = map.update(op.id, (value) => ({ n: value.n + op.n }));
      const before = model.get(op.id);
      if (before === undefined) expect(next).toBe(map);
      else {
        expect(next.get(op.id)).toEqual({ n: before.n + op.n });
        model.set(op.id, next.get(op.id)!);
      }
      map = next;
    }
  }
  return { map, model };
}

function expectSame(map: RecordMap<Value>, model: Map<string, Value>): void {
  expect(map.size).toBe(model.size);
  expect(map.keys()).toEqual([...model.keys()]);
  expect(map.values()).toEqual([...model.values()]);
  expect(map.entries()).toEqual([...model.entries()]);
  expect([...map]).toEqual([...model.entries()]);
  for (const [id, value] of model) {
    expect(map.get(id)).toBe(value);
    expect(map.has(id)).toBe(true);
  }
  for (const id of SPECIAL_IDS) {
    expect(map.has(id)).toBe(model.has(id));
    expect(map.get(id)).toBe(model.get(id));
  }
}

describe('RecordMap against a Map model (property)', () => {
  it('answers get, has, size and insertion order as the model after any sequence of set and update', () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        const { map, model } = run(ops);
        expectSame(map, model);
      }),
      { numRuns: 200 },
    );
  });

  it('serialises to the plain object the model would have been, and reads it back', () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        const { map, model } = run(ops);
        const plain: Record<string, Value> = {};
        for (const [id, value] of model)
          Object.defineProperty(plain, id, { value, enumerable: true, writable: true, configurable: true });
        expect(JSON.stringify(map)).toBe(JSON.stringify(plain));
        expect(Object.keys(map.toJSON())).toEqual(Object.keys(plain));
        const revived = RecordMap.from(JSON.parse(JSON.stringify(map)) as Record<string, Value>);
        expect(JSON.stringify(revived)).toBe(JSON.stringify(map));
        expect(new Map(revived.entries().map(([id, value]) => [id, value.n]))).toEqual(
          new Map([...model].map(([id, value]) => [id, value.n])),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('lists as changed exactly the entries that are new or hold another value than in the older version', () => {
    fc.assert(
      fc.property(opsArb, fc.array(opArb, { maxLength: 60 }), (first, then) => {
        const older = run(first);
        const olderModel = new Map(older.model);
        const newer = run(then, older.map, older.model);
        const expected = [...newer.model.entries()].filter(([id, value]) => olderModel.get(id) !== value);
        expect(newer.map.changedSince(older.map)).toEqual(expected);
        expect(older.map.changedSince(older.map)).toEqual([]);
        expect(newer.map.changedSince(RecordMap.empty())).toEqual([...newer.model.entries()]);
      }),
      { numRuns: 200 },
    );
  });

  it('compares unrelated maps by value identity, not by structure', () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        const { map } = run(ops);
        const copy = RecordMap.from(map.entries());
        expect(map.changedSince(copy)).toEqual([]);
        expect(copy.changedSince(map)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('RecordMap at scale', () => {
  it('keeps 5,000 ids and shares all but one path when one value changes', () => {
    let map = RecordMap.empty<Value>();
    for (let i = 0; i < 5000; i++) map = map.set(`w-${i}`, { n: i });
    const changed = map.set('w-1234', { n: -1 });
    expect(changed.size).toBe(5000);
    expect(changed.get('w-1234')).toEqual({ n: -1 });
    expect(map.get('w-1234')).toEqual({ n: 1234 });
    expect(changed.changedSince(map)).toEqual([['w-1234', { n: -1 }]]);
    expect(
      changed
        .values()
        .map((v) => v.n)
        .filter((n, i) => n !== i),
    ).toEqual([-1]);
  });
});

describe('valuesInObjectOrder', () => {
  it('lists values as Object.values of the plain object the map serialises to (property)', () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        const { map } = run(ops);
        expect(valuesInObjectOrder(map)).toEqual(Object.values(map.toJSON()));
      }),
      { numRuns: 200 },
    );
  });
});
