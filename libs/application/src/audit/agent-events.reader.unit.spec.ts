import type { EventStore, ReadStreamOptions, StoredEvent, SubscribeOptions, Subscription } from '@app/event-store';
import { AgentEventsReader, clampEventsLimit } from './agent-events.reader';

const event = (stream: string, revision: number, position: number): StoredEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  stream,
  type: 'Thing',
  data: { n: revision },
  metadata: {},
  revision: BigInt(revision),
  position: BigInt(position),
  recorded_at: '2026-01-01T00:00:00Z',
});

/**
 * A store whose stream reads see `stored`, and whose subscription delivers `live` after the
 * checkpoint it was given (recorded in `subscribedAfter`), then waits until stopped.
 */
function fakeStore(stored: StoredEvent[], live: StoredEvent[] = [], onSubscribe = () => undefined as unknown) {
  const state = { subscribedAfter: undefined as bigint | undefined, stopped: false };
  const store = {
    async readStream(stream: string, options: ReadStreamOptions = {}) {
      const mine = stored.filter((e) => e.stream === stream);
      if (options.direction === 'backwards') return mine.reverse().slice(0, options.max_count);
      return mine.filter((e) => e.revision >= (options.from_revision ?? 0n)).slice(0, options.max_count);
    },
    subscribeToAll(options: SubscribeOptions = {}): Subscription {
      state.subscribedAfter = options.after_position;
      onSubscribe();
      const after = options.after_position ?? -1n;
      const stopped = new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve()));
      return {
        stop: async () => void (state.stopped = true),
        async *[Symbol.asyncIterator]() {
          for (const e of live) if (e.position > after) yield e;
          await stopped;
        },
      };
    },
  };
  return { store: store as unknown as EventStore, state };
}

async function take(iterable: AsyncGenerator<StoredEvent>, count: number, abort: AbortController): Promise<string[]> {
  const seen: string[] = [];
  for await (const e of iterable) {
    seen.push(`${e.stream}@${e.revision}`);
    if (seen.length === count) abort.abort();
  }
  return seen;
}

describe('following an agent stream', () => {
  const A = 'agent-a';
  const B = 'agent-b';

  it('hands over from the backlog to the subscription at the position of the last event read, dropping repeats', async () => {
    const backlog = [event(A, 0, 1), event(B, 0, 2), event(A, 1, 3)];
    const { store, state } = fakeStore(backlog, [event(A, 1, 3), event(B, 1, 4), event(A, 2, 5)]);
    const abort = new AbortController();
    expect(await take(new AgentEventsReader(store).follow('a', null, abort.signal), 3, abort)).toEqual([
      `${A}@0`,
      `${A}@1`,
      `${A}@2`,
    ]);
    expect(state.subscribedAfter).toBe(3n);
    expect(state.stopped).toBe(true);
  });

  it('starts after `after` and, with nothing newer stored, subscribes after the newest event of the stream', async () => {
    const { store, state } = fakeStore([event(A, 0, 1), event(A, 1, 7)], [event(A, 2, 9)]);
    const abort = new AbortController();
    expect(await take(new AgentEventsReader(store).follow('a', 1n, abort.signal), 1, abort)).toEqual([`${A}@2`]);
    expect(state.subscribedAfter).toBe(7n);
  });

  it('reads a revision the subscription skipped from the stream before delivering the later one', async () => {
    const stored = [event(A, 0, 1)];
    const later = [event(A, 1, 2), event(A, 2, 3)];
    // Both commit after the backlog read; the subscription delivers only the second.
    const { store } = fakeStore(stored, [later[1]], () => stored.push(...later));
    const abort = new AbortController();
    expect(await take(new AgentEventsReader(store).follow('a', null, abort.signal), 3, abort)).toEqual([
      `${A}@0`,
      `${A}@1`,
      `${A}@2`,
    ]);
  });
});

describe('the events page limit', () => {
  it.each([
    [undefined, 100],
    [0, 1],
    [-5, 1],
    [1, 1],
    [250, 250],
    [1000, 1000],
    [1001, 1000],
    [Number.NaN, 100],
  ])('clamps %p to %p', (given, expected) => {
    expect(clampEventsLimit(given)).toBe(expected);
  });
});
