import { setTimeout as pause } from 'node:timers/promises';
import type { StoredEvent, Subscription } from '../event-store.port';
import { newEvent, newEvents } from '../testing/contract-helpers';
import { eventually } from '../testing/eventually';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { FakeEsdbServer } from './eventstoredb-fake-server';
import type { EventStoreDbSubscription } from './eventstoredb-subscription';

/**
 * The adapter against the official client with its transport faked (FakeEsdbServer answers
 * with the server's gRPC messages through the client's own read and subscription streams):
 * what this machine can show without an EventStoreDB server.
 */
const AGENTS = { streamPrefixes: ['agent-'] };

function collect(subscription: Subscription) {
  const seen: StoredEvent[] = [];
  const done = (async () => {
    for await (const event of subscription) seen.push(event);
  })();
  return { seen, done };
}

/** Waits until the expectation holds (at most 5 s), then asserts it (a timeout shows its failure). */
async function settles(check: () => void): Promise<void> {
  const holds = () => {
    try {
      check();
      return true;
    } catch {
      return false;
    }
  };
  await eventually('the expectation', holds, Boolean).catch(() => undefined);
  check();
}

function systemTail(server: FakeEsdbServer, count: number): void {
  for (let i = 0; i < count; i++) {
    if (i % 2) server.write('$stats-127.0.0.1:2113', '$statsCollected');
    else server.write('other-stream', 'SomethingElseHappened');
  }
}

describe('EventStoreDB adapter (official client, faked transport)', () => {
  describe('the log is the agent streams, filtered by the server', () => {
    it('subscribes with a stream-prefix filter: other and system streams never travel', async () => {
      const server = new FakeEsdbServer();
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      await store.appendToStream('agent-a', newEvents(2), 'no_stream');
      await store.appendToStream('contract-x', [newEvent()], 'no_stream');
      systemTail(server, 50);
      await store.appendToStream('agent-b', [newEvent()], 'no_stream');
      const { seen, done } = collect(store.subscribeToAll());
      await settles(() => expect(seen.map((e) => e.stream)).toEqual(['agent-a', 'agent-a', 'agent-b']));
      const call = server.calls.find((c) => c.kind === 'subscribeToAll')!;
      expect(call.sent).toBe(3); // filtered on the server, not after the wire
      await store.close();
      await done;
    });

    it('readAll pages through the same filter, after a position, up to a count', async () => {
      const server = new FakeEsdbServer();
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      const first = await store.appendToStream('agent-a', newEvents(3), 'no_stream');
      systemTail(server, 40);
      await store.appendToStream('agent-a', newEvents(3), first.next_revision);
      const all = await store.readAll();
      expect(all.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
      const page = await store.readAll({ after_position: all[1].position, max_count: 3 });
      expect(page.map((e) => e.revision)).toEqual([2n, 3n, 4n]);
      expect(server.calls.every((c) => c.kind === 'readAll filtered')).toBe(true);
      await store.close();
    });

    it('without prefixes (the contract suite) every non-system stream is in the log', async () => {
      const server = new FakeEsdbServer();
      const store = new EventStoreDbEventStore(server.client);
      await store.appendToStream('contract-x', [newEvent()], 'no_stream');
      systemTail(server, 3);
      expect((await store.readAll()).map((e) => e.stream)).toEqual(['contract-x', 'other-stream', 'other-stream']);
      await store.close();
    });
  });

  describe('a stream namespace: deployments sharing one server', () => {
    it('each sees only its own streams, under their own names', async () => {
      const server = new FakeEsdbServer();
      const one = new EventStoreDbEventStore(server.client, { ...AGENTS, streamNamespace: 'run1-' });
      const two = new EventStoreDbEventStore(server.client, { ...AGENTS, streamNamespace: 'run2-' });
      const mine = await one.appendToStream('agent-a', newEvents(2), 'no_stream');
      await two.appendToStream('agent-a', newEvents(3), 'no_stream');
      expect(server.log.map((r) => r.stream)).toEqual([
        ...Array(2).fill('run1-agent-a'),
        ...Array(3).fill('run2-agent-a'),
      ]);
      expect((await one.readStream('agent-a')).map((e) => e.stream)).toEqual(['agent-a', 'agent-a']);
      expect((await one.readAll()).map((e) => e.stream)).toEqual(['agent-a', 'agent-a']);
      expect(await one.headPosition()).toBe(mine.position);
      await expect(one.appendToStream('agent-a', [newEvent()], 'no_stream')).rejects.toMatchObject({
        stream: 'agent-a',
        actual: 1n,
      });
      const { seen, done } = collect(two.subscribeToAll());
      await settles(() =>
        expect(seen.map((e) => [e.stream, e.revision])).toEqual([
          ['agent-a', 0n],
          ['agent-a', 1n],
          ['agent-a', 2n],
        ]),
      );
      await Promise.all([one.close(), two.close()]);
      await done;
    });
  });

  describe('head position', () => {
    it('is the newest agent event however many system events follow it, in one filtered read', async () => {
      const server = new FakeEsdbServer();
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      await store.appendToStream('agent-a', newEvents(2), 'no_stream');
      const last = await store.appendToStream('agent-b', [newEvent()], 'no_stream');
      systemTail(server, 10_000); // more than the old 4,096-event scan
      server.calls.length = 0;
      expect(await store.headPosition()).toBe(last.position);
      expect(server.calls).toEqual([expect.objectContaining({ kind: 'readAll filtered', sent: 1 })]);
      await store.close();
    });

    it('is null for an empty store and for a store of system events only', async () => {
      const server = new FakeEsdbServer();
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      expect(await store.headPosition()).toBeNull();
      systemTail(server, 100);
      expect(await store.headPosition()).toBeNull();
      await store.close();
    });
  });

  describe('positions on a server that reports none in stream reads (-1)', () => {
    it('readStream answers the real $all positions, the same a subscription delivers', async () => {
      const server = new FakeEsdbServer({ streamReadPositions: 'none' });
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      await store.appendToStream('agent-a', newEvents(3), 'no_stream');
      await store.appendToStream('agent-ab', newEvents(2), 'no_stream'); // a name sharing the prefix
      systemTail(server, 20);
      await store.appendToStream('agent-a', newEvents(2), 2n);
      const inLog = (await store.readAll()).filter((e) => e.stream === 'agent-a');
      const read = await store.readStream('agent-a');
      expect(read.map((e) => [e.id, e.position])).toEqual(inLog.map((e) => [e.id, e.position]));
      expect(read.every((e) => e.position > 0n)).toBe(true);
      const [newest] = await store.readStream('agent-a', { direction: 'backwards', max_count: 1 });
      expect(newest.position).toBe(inLog[4].position);
      expect(await store.streamRevision('agent-a')).toBe(4n);
      await store.close();
    });

    it('an idempotent repeat of an append answers the original position', async () => {
      const server = new FakeEsdbServer({ streamReadPositions: 'none' });
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      const batch = newEvents(2);
      const first = await store.appendToStream('agent-a', batch, 'no_stream');
      systemTail(server, 5);
      const repeat = await store.appendToStream('agent-a', batch, 'no_stream');
      expect(repeat).toEqual(first);
      expect(first.position).toBeGreaterThan(0n);
      await store.close();
    });
  });

  describe('reading some revisions of a stream', () => {
    it('reads each revision asked, in revision order, and leaves out what the stream does not hold', async () => {
      const server = new FakeEsdbServer();
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      const events = newEvents(6);
      await store.appendToStream('agent-a', events, 'no_stream');
      const read = await store.readRevisions('agent-a', [4n, 1n, 4n, 9n]);
      expect(read.map((e) => [e.id, e.revision])).toEqual([
        [events[1].id, 1n],
        [events[4].id, 4n],
      ]);
      expect(await store.readRevisions('agent-missing', [0n])).toEqual([]);
      expect(await store.readRevisions('agent-a', [])).toEqual([]);
      await store.close();
    });

    it('answers the real $all positions on a server that reports none in stream reads', async () => {
      const server = new FakeEsdbServer({ streamReadPositions: 'none' });
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      await store.appendToStream('agent-a', newEvents(3), 'no_stream');
      systemTail(server, 10);
      await store.appendToStream('agent-a', newEvents(2), 2n);
      const inLog = (await store.readAll()).filter((e) => e.stream === 'agent-a');
      const read = await store.readRevisions('agent-a', [0n, 3n]);
      expect(read.map((e) => [e.id, e.position])).toEqual([inLog[0], inLog[3]].map((e) => [e.id, e.position]));
      await store.close();
    });
  });

  describe('checkpoints and reconnection', () => {
    it('resumes after the server checkpoint, not re-reading the filtered-out events', async () => {
      const server = new FakeEsdbServer({ searchWindow: 32 });
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      const events = newEvents(3);
      await store.appendToStream('agent-a', events, 'no_stream');
      systemTail(server, 1000);
      const subscription = store.subscribeToAll() as EventStoreDbSubscription;
      const { seen, done } = collect(subscription);
      await settles(() => expect(seen).toHaveLength(3));
      // The server passed 1000 filtered-out events: the resume point is its last checkpoint.
      const lastCheckpoint = server.log[Math.floor(server.log.length / 32) * 32 - 1].position;
      await settles(() => expect(subscription.resumePosition?.commit).toBe(lastCheckpoint));
      expect(lastCheckpoint).toBeGreaterThan(seen[2].position);

      server.dropSubscriptions();
      await settles(() => expect(server.calls.filter((c) => c.kind === 'subscribeToAll')).toHaveLength(2));
      const again = server.calls.filter((c) => c.kind === 'subscribeToAll')[1];
      expect(again.from).toBe(lastCheckpoint);
      await settles(() => expect(again.scanned).toBeLessThan(32)); // only what is after the checkpoint

      const live = newEvents(2);
      await store.appendToStream('agent-a', live, 2n);
      await settles(() => expect(seen).toHaveLength(5));
      expect(seen.map((e) => e.id)).toEqual([...events, ...live].map((e) => e.id));
      await store.close();
      await done;
    });

    it('tells its consumer of a checkpoint only once every event before it is taken (ADR 0043)', async () => {
      const server = new FakeEsdbServer({ searchWindow: 8 });
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      await store.appendToStream('agent-a', newEvents(3), 'no_stream');
      systemTail(server, 100);
      const last = server.log[Math.floor(server.log.length / 8) * 8 - 1].position;
      const told: bigint[] = [];
      const events = store.subscribeToAll({ on_checkpoint: (position) => told.push(position) })[Symbol.asyncIterator]();
      const taken: StoredEvent[] = [];
      for (let i = 0; i < 3; i++) taken.push((await events.next()).value as StoredEvent);
      // A window in which a wrong notice would land: the server has sent every checkpoint by now.
      await settles(() => expect(server.calls[0].scanned).toBe(server.log.length));
      await pause(50);
      // The third event is handed out but the consumer has not come back: it may not be applied yet.
      expect(told).toEqual([]);
      const fourth = events.next();
      await settles(() => expect(told.at(-1)).toBe(last));
      expect(told.every((position) => position > taken[2].position)).toBe(true);
      await store.close();
      await fourth;
    });

    it('a dropped subscription resumes after the last delivered event: no gap, no repeat', async () => {
      const server = new FakeEsdbServer();
      const store = new EventStoreDbEventStore(server.client, AGENTS);
      const before = await store.appendToStream('agent-a', newEvents(2), 'no_stream');
      const { seen, done } = collect(store.subscribeToAll({ after_position: before.position }));
      const sent = newEvents(4);
      await store.appendToStream('agent-a', sent.slice(0, 2), 1n);
      await settles(() => expect(seen).toHaveLength(2));
      server.dropSubscriptions();
      await store.appendToStream('agent-a', sent.slice(2), 3n); // written while the connection is down
      await settles(() => expect(seen).toHaveLength(4));
      expect(seen.map((e) => e.id)).toEqual(sent.map((e) => e.id));
      const resubscribed = server.calls.filter((c) => c.kind === 'subscribeToAll')[1];
      expect(resubscribed.from).toBe(seen[1].position);
      await store.close();
      await done;
    });
  });
});
