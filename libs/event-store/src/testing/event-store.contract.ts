import type { EventStore, StoredEvent } from '../event-store.port';
import { WrongExpectedRevisionError } from '../errors';
import {
  fromJsonPosition,
  fromJsonRevision,
  toJsonExpectedRevision,
  toJsonPosition,
  toJsonRevision,
} from '../revisions';
import {
  type ContractOptions,
  newEvent,
  newEvents,
  type StoreGetter,
  uniqueStream,
  untilAsync,
} from './contract-helpers';
import { concurrencyCases } from './contract-concurrency';
import { subscriptionCases } from './contract-subscriptions';

/** Asserts that `work` fails with WrongExpectedRevisionError carrying `actual`. */
export async function expectWrongRevision(
  work: Promise<unknown>,
  actual: bigint | null,
): Promise<WrongExpectedRevisionError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect((error as WrongExpectedRevisionError).actual).toBe(actual);
  return error as WrongExpectedRevisionError;
}

/** The one contract every EventStore adapter passes. */
export function runEventStoreContract(
  name: string,
  makeStore: () => Promise<EventStore>,
  options: ContractOptions = {},
): void {
  describe(`${name}: event store contract`, () => {
    let store: EventStore;
    const getStore: StoreGetter = () => store;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });

    expectedRevisionCases(getStore);
    readCases(getStore);
    bigintCases(getStore);
    concurrencyCases(getStore);
    subscriptionCases(getStore, options);
  });
}

function expectedRevisionCases(store: StoreGetter): void {
  describe('an append with an expected revision', () => {
    it('no_stream creates a stream once and then reports the actual revision', async () => {
      const stream = uniqueStream('exp-none');
      await expect(store().appendToStream(stream, [newEvent()], 'no_stream')).resolves.toMatchObject({
        next_revision: 0n,
      });
      const error = await expectWrongRevision(store().appendToStream(stream, [newEvent()], 'no_stream'), 0n);
      expect(error.stream).toBe(stream);
      expect(error.code).toBe('wrong_expected_revision');
    });

    it('stream_exists refuses a missing stream (actual null) and accepts an existing one', async () => {
      const stream = uniqueStream('exp-exists');
      await expectWrongRevision(store().appendToStream(stream, [newEvent()], 'stream_exists'), null);
      await store().appendToStream(stream, [newEvent()], 'any');
      await expect(store().appendToStream(stream, newEvents(2), 'stream_exists')).resolves.toMatchObject({
        next_revision: 2n,
      });
    });

    it('any appends to missing and existing streams', async () => {
      const stream = uniqueStream('exp-any');
      await expect(store().appendToStream(stream, [newEvent()], 'any')).resolves.toMatchObject({ next_revision: 0n });
      await expect(store().appendToStream(stream, [newEvent()], 'any')).resolves.toMatchObject({ next_revision: 1n });
    });

    it('an exact revision must equal the last event revision', async () => {
      const stream = uniqueStream('exp-exact');
      await expectWrongRevision(store().appendToStream(stream, [newEvent()], 0n), null);
      await store().appendToStream(stream, newEvents(2), 'no_stream');
      await expect(store().appendToStream(stream, [newEvent()], 1n)).resolves.toMatchObject({ next_revision: 2n });
      await expectWrongRevision(store().appendToStream(stream, [newEvent()], 1n), 2n);
      await expectWrongRevision(store().appendToStream(stream, [newEvent()], 7n), 2n);
      expect(await store().streamRevision(stream)).toBe(2n);
    });
  });

  describe('a retried append (same event ids, same expected revision)', () => {
    it('returns the first result and stores nothing twice', async () => {
      const stream = uniqueStream('idem');
      const batch = newEvents(2);
      const first = await store().appendToStream(stream, batch, 'no_stream');
      await expect(store().appendToStream(stream, batch, 'no_stream')).resolves.toEqual(first);
      const next = [newEvent()];
      const second = await store().appendToStream(stream, next, 1n);
      await expect(store().appendToStream(stream, next, 1n)).resolves.toEqual(second);
      const stored = await store().readStream(stream);
      expect(stored.map((e) => e.id)).toEqual([...batch, ...next].map((e) => e.id));
      expect(second).toEqual({ next_revision: 2n, position: stored[2].position });
    });
  });
}

function readCases(store: StoreGetter): void {
  describe('reading a stream', () => {
    let stream: string;
    let ids: string[];
    beforeAll(async () => {
      stream = uniqueStream('read');
      const events = newEvents(5, 'ReadCaseRecorded');
      ids = events.map((e) => e.id);
      await store().appendToStream(stream, events, 'no_stream');
    });
    const revisions = (events: { revision: bigint }[]) => events.map((e) => e.revision);

    it('reads forwards and backwards', async () => {
      expect(revisions(await store().readStream(stream))).toEqual([0n, 1n, 2n, 3n, 4n]);
      expect(revisions(await store().readStream(stream, { direction: 'backwards' }))).toEqual([4n, 3n, 2n, 1n, 0n]);
    });

    it('starts at from_revision (inclusive) and stops at max_count', async () => {
      expect(revisions(await store().readStream(stream, { from_revision: 2n }))).toEqual([2n, 3n, 4n]);
      expect(revisions(await store().readStream(stream, { direction: 'backwards', from_revision: 3n }))).toEqual([
        3n,
        2n,
        1n,
        0n,
      ]);
      expect(revisions(await store().readStream(stream, { from_revision: 1n, max_count: 2 }))).toEqual([1n, 2n]);
      expect(revisions(await store().readStream(stream, { direction: 'backwards', max_count: 2 }))).toEqual([4n, 3n]);
    });

    it('returns what was appended', async () => {
      const [first] = await store().readStream(stream, { max_count: 1 });
      expect(first).toMatchObject({ id: ids[0], stream, type: 'ReadCaseRecorded', data: { index: 0 }, revision: 0n });
      expect(first.metadata).toMatchObject({ schema_version: 1 });
      expect(typeof first.position).toBe('bigint');
      expect(first.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    });

    it('reads some revisions of a stream, in revision order, leaving out revisions it does not hold', async () => {
      const read = await store().readRevisions(stream, [3n, 0n, 3n, 7n]);
      expect(read.map((e) => [e.id, e.revision])).toEqual([
        [ids[0], 0n],
        [ids[3], 3n],
      ]);
      expect(read[1]).toMatchObject({ stream, type: 'ReadCaseRecorded', data: { index: 3 } });
      expect(read[1].position).toEqual(
        (await store().readStream(stream, { from_revision: 3n, max_count: 1 }))[0].position,
      );
      await expect(store().readRevisions(uniqueStream('missing'), [0n])).resolves.toEqual([]);
      await expect(store().readRevisions(stream, [])).resolves.toEqual([]);
    });

    it('treats an unknown stream as empty', async () => {
      const missing = uniqueStream('missing');
      await expect(store().readStream(missing)).resolves.toEqual([]);
      await expect(store().streamRevision(missing)).resolves.toBeNull();
      await expect(store().streamRevision(stream)).resolves.toBe(4n);
    });
  });

  describe('reading all streams', () => {
    it('returns events in global order after a position, as many as asked', async () => {
      const [a, b] = [uniqueStream('all-a'), uniqueStream('all-b')];
      const r1 = await store().appendToStream(a, [newEvent()], 'no_stream');
      const r2 = await store().appendToStream(b, newEvents(2), 'no_stream');
      const r3 = await store().appendToStream(a, [newEvent()], 0n);
      expect(r1.position < r2.position && r2.position < r3.position).toBe(true);
      // Visibility follows the oldest transaction open anywhere on the server (other suites
      // share it), so the newest events may show a moment later: wait for them, never skip.
      let mine: StoredEvent[] = [];
      await untilAsync(async () => {
        const after = await store().readAll({ after_position: r1.position, max_count: 100 });
        mine = after.filter((e) => e.stream === a || e.stream === b);
        return mine.length >= 3;
      });
      expect(mine.map((e) => [e.stream, e.revision])).toEqual([
        [b, 0n],
        [b, 1n],
        [a, 1n],
      ]);
      expect(mine[2].position).toBe(r3.position);
      expect((await store().headPosition())! >= r3.position).toBe(true);
      const firstTwo = await store().readAll({ after_position: r1.position, max_count: 2 });
      expect(firstTwo).toHaveLength(2);
      expect(firstTwo[0].position < firstTwo[1].position).toBe(true);
      expect(firstTwo[0].position > r1.position).toBe(true);
    });
  });
}

function bigintCases(store: StoreGetter): void {
  describe('revisions and positions as bigint', () => {
    it('round-trip through the JSON helpers beyond 2^53', async () => {
      const big = 2n ** 60n + 1n;
      expect(toJsonRevision(big)).toBe('1152921504606846977');
      expect(fromJsonRevision(toJsonRevision(big))).toBe(big);
      expect(fromJsonPosition(toJsonPosition(2n ** 64n - 1n))).toBe(2n ** 64n - 1n);
      expect(toJsonExpectedRevision(big)).toBe('1152921504606846977');
      const { position } = await store().appendToStream(uniqueStream('json'), [newEvent()], 'no_stream');
      expect(fromJsonPosition(JSON.parse(JSON.stringify({ p: toJsonPosition(position) })).p)).toBe(position);
    });

    it('compares a huge expected revision without overflow', async () => {
      const stream = uniqueStream('huge');
      await store().appendToStream(stream, [newEvent()], 'no_stream');
      await expectWrongRevision(store().appendToStream(stream, [newEvent()], 2n ** 62n), 0n);
      await expectWrongRevision(store().appendToStream(stream, [newEvent()], 2n ** 53n + 1n), 0n);
    });
  });
}
