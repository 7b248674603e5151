import {
  Collector,
  isStrictlyIncreasing,
  newEvent,
  newEvents,
  positions,
  streamsStartingWith,
  uniqueStream,
  type ContractOptions,
  type StoreGetter,
} from './contract-helpers';

const ids = (events: Array<{ id: string }>) => events.map((e) => e.id);

export function subscriptionCases(store: StoreGetter, options: ContractOptions): void {
  describe('a subscription to all streams', () => {
    it('resumes after a checkpoint without gap or repeat', async () => {
      const prefix = uniqueStream('resume');
      const marker = await store().appendToStream(`${prefix}-marker`, [newEvent()], 'no_stream');
      const stream = `${prefix}-s`;
      const before = newEvents(10);
      await store().appendToStream(stream, before.slice(0, 6), 'no_stream');
      await store().appendToStream(stream, before.slice(6), 5n);

      const first = new Collector(
        store().subscribeToAll({ after_position: marker.position, batch_size: 3 }),
        streamsStartingWith(stream),
      );
      await first.waitFor((events) => events.length >= 4);
      await first.stop();
      const checkpoint = first.events[3];
      expect(ids(first.events.slice(0, 4))).toEqual(ids(before.slice(0, 4)));

      const second = new Collector(
        store().subscribeToAll({ after_position: checkpoint.position, batch_size: 3 }),
        streamsStartingWith(stream),
      );
      try {
        const live = newEvents(3);
        await store().appendToStream(stream, live, 9n);
        const seen = await second.waitFor((events) => events.length >= 9);
        expect(ids(seen)).toEqual(ids([...before.slice(4), ...live]));
        expect(isStrictlyIncreasing(positions(second.all))).toBe(true);
        expect(second.all[0].position > checkpoint.position).toBe(true);
      } finally {
        await second.stop();
      }
    });

    it('ends iteration promptly on stop() and on abort', async () => {
      const { position } = await store().appendToStream(uniqueStream('stop'), [newEvent()], 'no_stream');
      const stopped = new Collector(store().subscribeToAll({ after_position: position }));
      const started = Date.now();
      await stopped.stop();
      expect(stopped.isDone).toBe(true);

      const controller = new AbortController();
      const aborted = new Collector(store().subscribeToAll({ after_position: position, signal: controller.signal }));
      controller.abort();
      await aborted.finished;
      expect(Date.now() - started).toBeLessThan(2000);
      expect(aborted.error).toBeUndefined();
    });
  });

  const openAppend = options.openTransactionAppend;
  if (!openAppend) return;

  describe('an append that commits after later-numbered appends (out-of-order commit)', () => {
    it('holds later events back until the slow one commits, then delivers all once, in order', async () => {
      const prefix = uniqueStream('ooo');
      const marker = await store().appendToStream(`${prefix}-marker`, [newEvent()], 'no_stream');
      const mine = streamsStartingWith(`${prefix}-s`);
      const collector = new Collector(store().subscribeToAll({ after_position: marker.position }), mine);
      try {
        const early = await store().appendToStream(`${prefix}-s-early`, [newEvent('Early')], 'no_stream');
        await collector.waitFor((events) => events.length === 1);
        const slow = await openAppend(`${prefix}-s-slow`, [newEvent('Slow')], 'no_stream');
        const fast = [];
        for (let i = 0; i < 3; i++)
          fast.push(await store().appendToStream(`${prefix}-s-fast${i}`, [newEvent('Fast')], 'no_stream'));

        const visible = (await store().readAll({ after_position: marker.position })).filter(mine);
        expect(visible.map((e) => e.position)).toEqual([early.position]);
        // A negative claim needs a window: long enough for notifications and two polls.
        await new Promise((resolve) => setTimeout(resolve, 800));
        expect(collector.events.map((e) => e.type)).toEqual(['Early']);

        await slow.commit();
        const seen = await collector.waitFor((events) => events.length >= 5);
        expect(seen.map((e) => e.type)).toEqual(['Early', 'Slow', 'Fast', 'Fast', 'Fast']);
        expect(seen.slice(2).map((e) => e.position)).toEqual(fast.map((r) => r.position));
        expect(isStrictlyIncreasing(positions(collector.all))).toBe(true);
        expect(new Set(ids(collector.all)).size).toBe(collector.all.length);
      } finally {
        await collector.stop();
      }
    });

    it('moves past the positions of a rolled-back append', async () => {
      const prefix = uniqueStream('rollback');
      const marker = await store().appendToStream(`${prefix}-marker`, [newEvent()], 'no_stream');
      const collector = new Collector(
        store().subscribeToAll({ after_position: marker.position }),
        streamsStartingWith(`${prefix}-s`),
      );
      try {
        const doomed = await openAppend(`${prefix}-s-doomed`, [newEvent('Doomed')], 'no_stream');
        const after = await store().appendToStream(`${prefix}-s-after`, [newEvent('After')], 'no_stream');
        await doomed.rollback();
        const seen = await collector.waitFor((events) => events.length >= 1);
        expect(seen.map((e) => e.position)).toEqual([after.position]);
      } finally {
        await collector.stop();
      }
    });
  });
}
