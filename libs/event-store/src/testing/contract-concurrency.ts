import { WrongExpectedRevisionError } from '../errors';
import type { AppendResult, ExpectedRevision } from '../event-store.port';
import {
  Collector,
  isStrictlyIncreasing,
  newEvent,
  newEvents,
  positions,
  streamsStartingWith,
  uniqueStream,
  type StoreGetter,
} from './contract-helpers';

const WRITERS = 8;
const ROUNDS = 4;

export function concurrencyCases(store: StoreGetter): void {
  describe(`${WRITERS} writers racing on one stream at the same expected revision`, () => {
    it('lets exactly one win each revision; the others get WrongExpectedRevisionError', async () => {
      const stream = uniqueStream('race');
      let expected: ExpectedRevision = 'no_stream';
      const winners: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const attempts = Array.from({ length: WRITERS }, () => newEvent('RaceWon'));
        const outcomes = await Promise.allSettled(attempts.map((e) => store().appendToStream(stream, [e], expected)));
        const won = outcomes.flatMap((o, i) =>
          o.status === 'fulfilled' ? [{ result: o.value, id: attempts[i].id }] : [],
        );
        const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(won).toHaveLength(1);
        expect(won[0].result.next_revision).toBe(BigInt(round));
        expect(lost).toHaveLength(WRITERS - 1);
        for (const error of lost) {
          expect(error).toBeInstanceOf(WrongExpectedRevisionError);
          expect((error as WrongExpectedRevisionError).actual).toBe(BigInt(round));
        }
        winners.push(won[0].id);
        expected = BigInt(round);
      }
      expect((await store().readStream(stream)).map((e) => e.id)).toEqual(winners);
    });
  });

  describe('several writers on different streams while a subscriber runs', () => {
    it('delivers each event exactly once, positions strictly increasing', async () => {
      const prefix = uniqueStream('load');
      const marker = await store().appendToStream(`${prefix}-marker`, [newEvent()], 'no_stream');
      const collector = new Collector(
        store().subscribeToAll({ after_position: marker.position, batch_size: 7 }),
        streamsStartingWith(`${prefix}-w`),
      );
      const writers = 4;
      const appendsPerWriter = 15;
      const written: string[] = [];
      try {
        await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            let expected: ExpectedRevision = 'no_stream';
            for (let i = 0; i < appendsPerWriter; i++) {
              const batch = newEvents(1 + (i % 2), 'LoadRecorded');
              written.push(...batch.map((e) => e.id));
              const result: AppendResult = await store().appendToStream(`${prefix}-w${w}`, batch, expected);
              expected = result.next_revision;
            }
          }),
        );
        const seen = await collector.waitFor((events) => events.length >= written.length);
        await new Promise((resolve) => setImmediate(resolve));
        expect(seen).toHaveLength(written.length);
        expect(new Set(seen.map((e) => e.id))).toEqual(new Set(written));
        expect(isStrictlyIncreasing(positions(collector.all))).toBe(true);
        for (let w = 0; w < writers; w++) {
          const revisions = seen.filter((e) => e.stream === `${prefix}-w${w}`).map((e) => e.revision);
          expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
        }
      } finally {
        await collector.stop();
      }
    });
  });
}
