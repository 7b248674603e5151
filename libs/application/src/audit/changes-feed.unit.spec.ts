import type { EventStore, StoredEvent, SubscribeOptions, Subscription } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { ChangesFeed } from './changes-feed';

const event = (stream: string, revision: number, position: number, type = 'WorkItemCreated'): StoredEvent => ({
  id: `e-${position}`,
  stream,
  type,
  data: {},
  metadata: {} as StoredEvent['metadata'],
  revision: BigInt(revision),
  position: BigInt(position),
  recorded_at: '2026-01-01T00:00:00Z',
});

/** A store whose subscription replays `events` after the requested position (what the feed asks of it). */
function storeOf(events: StoredEvent[]): EventStore & { subscribedAfter: Array<bigint | undefined> } {
  const subscribedAfter: Array<bigint | undefined> = [];
  return {
    subscribedAfter,
    headPosition: async () => events.at(-1)?.position ?? null,
    subscribeToAll(options: SubscribeOptions = {}): Subscription {
      subscribedAfter.push(options.after_position);
      const after = options.after_position ?? -1n;
      return {
        async *[Symbol.asyncIterator]() {
          for (const e of events) if (e.position > after) yield e;
        },
        stop: async () => undefined,
      };
    },
  } as unknown as EventStore & { subscribedAfter: Array<bigint | undefined> };
}

async function collect(
  feed: ChangesFeed,
  scope: Parameters<ChangesFeed['follow']>[0],
  after: bigint | null,
  count: number,
) {
  const abort = new AbortController();
  const seen = [];
  for await (const change of feed.follow(scope, after, abort.signal)) {
    seen.push(change);
    if (seen.length === count) break;
  }
  abort.abort();
  return seen;
}

describe('ChangesFeed', () => {
  const events = [
    event('agent-a', 0, 1),
    event('agent-b', 0, 2),
    event('$system', 0, 3),
    event('agent-a', 1, 4, 'WorkItemUpdated'),
  ];

  it('gives every agent event after the resume point, as agent id, revision, position and type', async () => {
    const store = storeOf(events);
    const feed = new ChangesFeed(store, async () => 10n);
    expect(await collect(feed, { all: true }, 1n, 2)).toEqual([
      { agent_id: 'b', revision: 0n, position: 2n, type: 'WorkItemCreated' },
      { agent_id: 'a', revision: 1n, position: 4n, type: 'WorkItemUpdated' },
    ]);
    expect(store.subscribedAfter).toEqual([1n]);
    expect(await feed.now()).toBe(4n);
  });

  it("keeps a scoped caller to its own agents' events", async () => {
    const feed = new ChangesFeed(storeOf(events), async () => 10n);
    expect(
      (await collect(feed, { all: false, agent_ids: ['a'] }, null, 2)).map((c) => [c.agent_id, c.position]),
    ).toEqual([
      ['a', 1n],
      ['a', 4n],
    ]);
  });

  it('holds each event back until the read models checkpoint has passed it', async () => {
    let checkpoint: bigint | null = null;
    const reads: Array<bigint | null> = [];
    const feed = new ChangesFeed(storeOf(events), async () => (reads.push(checkpoint), checkpoint), {
      pollMs: 5,
      maxWaitMs: 60_000,
    });
    const abort = new AbortController();
    const iterator = feed.follow({ all: true }, null, abort.signal)[Symbol.asyncIterator]();
    const first = iterator.next();
    let delivered = false;
    void first.then(() => (delivered = true));
    // It polls: the checkpoint read again and again while the event waits.
    await eventually(
      'the feed to read the checkpoint twice',
      () => reads.length,
      (count) => count > 1,
    );
    expect(delivered).toBe(false);
    expect(reads.length).toBeGreaterThan(1);
    checkpoint = 1n;
    expect((await first).value).toMatchObject({ agent_id: 'a', position: 1n });
    // Position 2 is not in the read models yet: it waits again; a checkpoint past it releases it and, once known, the next one too.
    const readsAtFirst = reads.length;
    const second = iterator.next();
    await eventually(
      'the feed to read the checkpoint again for position 2',
      () => reads.slice(readsAtFirst),
      (seen) => seen.includes(1n),
    );
    checkpoint = 4n;
    expect((await second).value).toMatchObject({ agent_id: 'b', position: 2n });
    const readsBefore = reads.length;
    expect((await iterator.next()).value).toMatchObject({ agent_id: 'a', position: 4n });
    expect(reads.length).toBe(readsBefore);
    abort.abort();
    await iterator.return?.(undefined);
  });

  it('sends an event anyway after maxWaitMs when the projector does not move (a stalled projector must not mute the feed)', async () => {
    const feed = new ChangesFeed(storeOf(events), async () => 0n, { pollMs: 5, maxWaitMs: 40 });
    const started = Date.now();
    expect((await collect(feed, { all: true }, null, 1))[0]).toMatchObject({ position: 1n });
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });

  it('stops waiting when its caller goes away', async () => {
    let reads = 0;
    const feed = new ChangesFeed(storeOf(events), async () => (reads++, null), { pollMs: 5, maxWaitMs: 60_000 });
    const abort = new AbortController();
    const next = feed.follow({ all: true }, null, abort.signal)[Symbol.asyncIterator]().next();
    // The caller goes away while the feed waits for the projector (it has polled the checkpoint).
    await eventually(
      'the feed to poll the checkpoint',
      () => reads,
      (count) => count > 1,
    );
    abort.abort();
    expect(await next).toEqual({ done: true, value: undefined });
  });
});
