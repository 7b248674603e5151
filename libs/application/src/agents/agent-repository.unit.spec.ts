import { type EventStore, type EventToAppend, type StoredEvent, WrongExpectedRevisionError } from '@app/event-store';
import type { AgentDecider, SnapshotStore } from '@app/core';
import { ApiError } from '@app/core';
import { AgentRepository, type TransactRequest } from './agent-repository';

type Counted = { type: 'Counted'; data: { by: string } };

/** A state that counts its events: enough to see what was decided on. */
const counter: AgentDecider<number, Counted> = {
  initialState: () => 0,
  evolve: (state) => state + 1,
  stateVersion: 1,
  revive: (json) => json as number,
};

const noSnapshots: SnapshotStore = { load: async () => null, save: async () => undefined };

/**
 * An in-memory agent stream where another process writes first `rivalWrites` times: each such
 * append lands a rival's event and throws WrongExpectedRevisionError, as the real store would.
 */
function contendedStore(rivalWrites: number) {
  const events: StoredEvent[] = [];
  let rivals = rivalWrites;
  const push = (event: Pick<EventToAppend, 'type' | 'data' | 'metadata'>) =>
    events.push({
      id: `e${events.length}`,
      stream: 'agent-a',
      type: event.type,
      data: event.data,
      metadata: event.metadata ?? {},
      revision: BigInt(events.length),
      position: BigInt(events.length),
      recorded_at: '2026-01-01T00:00:00.000Z',
    });
  const store = {
    readStream: async (_stream: string, options: { from_revision?: bigint } = {}) =>
      events.slice(Number(options.from_revision ?? 0n)),
    appendToStream: async (stream: string, batch: EventToAppend[], expected: bigint | string) => {
      if (rivals > 0) {
        rivals--;
        push({ type: 'Counted', data: { by: 'rival' }, metadata: { command_id: `rival-${rivals}` } });
        throw new WrongExpectedRevisionError(stream, String(expected), BigInt(events.length - 1));
      }
      for (const event of batch) push(event);
      return { next_revision: BigInt(events.length - 1), position: BigInt(events.length - 1) };
    },
  } as unknown as EventStore;
  return { store, events, rivalsNext: (count: number) => void (rivals = count) };
}

const ctx = (commandId: string, extra: Partial<TransactRequest> = {}): TransactRequest => ({
  agentId: 'a',
  commandId,
  actor: 'tester',
  ...extra,
});
const countMe = (by: string) => (): Counted[] => [{ type: 'Counted', data: { by } }];

function repositoryOn(store: EventStore, maxRetries = 3) {
  const sleeps: number[] = [];
  const repository = new AgentRepository(store, noSnapshots, counter, {
    maxRetries,
    retry: { random: () => 0.5, sleep: async (ms) => void sleeps.push(ms), baseDelayMs: 10, maxDelayMs: 30 },
  });
  return { repository, sleeps };
}

describe('a command without expected_revision against writers in other processes', () => {
  it('reloads and decides again after a jittered backoff until it lands', async () => {
    const { store, events } = contendedStore(3);
    const { repository, sleeps } = repositoryOn(store);
    const result = await repository.transact(ctx('c-1'), countMe('me'));
    expect(result.revision).toBe(3n);
    expect(result.before).toBe(3);
    expect(events.map((e) => e.data.by)).toEqual(['rival', 'rival', 'rival', 'me']);
    // Half of min(30, 10 * 2^n): the backoff grows, capped, and is spread by the random share.
    expect(sleeps).toEqual([5, 10, 15]);
  });

  it('gives up with 503 contention and Retry-After once the retries run out, having written nothing', async () => {
    const { store, events } = contendedStore(100);
    const { repository, sleeps } = repositoryOn(store, 3);
    const error = await repository.transact(ctx('c-1'), countMe('me')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'contention',
      details: { agent_id: 'a', attempts: 4, retry_after_seconds: 1 },
    });
    expect(sleeps).toHaveLength(3);
    expect(events.every((e) => e.data.by === 'rival')).toBe(true);
  });

  it('gives up when the time budget is spent, whatever retries are left', async () => {
    const { store } = contendedStore(100);
    let clock = 0;
    const repository = new AgentRepository(store, noSnapshots, counter, {
      maxRetries: 1000,
      retry: { budgetMs: 100, now: () => clock, sleep: async () => void (clock += 40) },
    });
    await expect(repository.transact(ctx('c-1'), countMe('me'))).rejects.toMatchObject({
      code: 'contention',
      details: { attempts: 4 },
    });
  });

  it('answers a caller whose own expected_revision went stale with the 409 of today, never a retry', async () => {
    const { store, events, rivalsNext } = contendedStore(0);
    const { repository, sleeps } = repositoryOn(store);
    await repository.transact(ctx('c-0'), countMe('seed'));
    rivalsNext(1);
    const error = await repository
      .transact(ctx('c-1', { expectedRevision: 0n }), countMe('me'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ expected: '0', actual: 1n });
    expect(sleeps).toEqual([]);
    expect(events.map((e) => e.data.by)).toEqual(['seed', 'rival']);
  });
});

describe('a command on a cached agent (the common case: no read before the append)', () => {
  /** The store above, counting its stream reads; `rival` appends an event of another process. */
  function counted() {
    const contended = contendedStore(0);
    const reads = { count: 0 };
    const readStream = contended.store.readStream.bind(contended.store);
    contended.store.readStream = ((...args: Parameters<EventStore['readStream']>) => {
      reads.count += 1;
      return readStream(...args);
    }) as EventStore['readStream'];
    // This fake checks the expected revision, as the real stores do.
    const append = contended.store.appendToStream.bind(contended.store);
    contended.store.appendToStream = ((stream: string, batch: EventToAppend[], expected: bigint | string) => {
      const actual = contended.events.length === 0 ? 'no_stream' : BigInt(contended.events.length - 1);
      if (expected !== actual)
        return Promise.reject(
          new WrongExpectedRevisionError(stream, String(expected), BigInt(contended.events.length - 1)),
        );
      return append(stream, batch, expected);
    }) as EventStore['appendToStream'];
    const rival = async () => {
      const revision = BigInt(contended.events.length - 1);
      await contended.store.appendToStream(
        'agent-a',
        [{ id: 'r', type: 'Counted', data: { by: 'rival' }, metadata: {} }],
        revision,
      );
    };
    return { ...contended, reads, rival };
  }

  it('appends on the cached state with its revision expected, without reading the stream', async () => {
    const { store, events, reads } = counted();
    const { repository } = repositoryOn(store);
    await repository.transact(ctx('c-0'), countMe('first'));
    const readsBefore = reads.count;
    const result = await repository.transact(ctx('c-1'), countMe('second'));
    expect(reads.count).toBe(readsBefore);
    expect(result).toMatchObject({ before: 1, after: 2, revision: 1n, position: 1n, repeated: false });
    expect(events.map((e) => e.data.by)).toEqual(['first', 'second']);
  });

  it('decides again on the latest revision when another process wrote since: no backoff, no contention counted', async () => {
    const { store, events, rival } = counted();
    const conflicts: boolean[] = [];
    const sleeps: number[] = [];
    const repository = new AgentRepository(store, noSnapshots, counter, {
      retry: { sleep: async (ms: number) => void sleeps.push(ms) },
      metrics: {
        appendObserved: () => undefined,
        appendConflict: (retried: boolean) => void conflicts.push(retried),
        schedulerDecision: () => undefined,
        leaseExpired: () => undefined,
        recovered: () => undefined,
        timerLateness: () => undefined,
      },
    });
    await repository.transact(ctx('c-0'), countMe('first'));
    await rival();
    const result = await repository.transact(ctx('c-1'), countMe('second'));
    expect(result).toMatchObject({ before: 2, after: 3, revision: 2n });
    expect(events.map((e) => e.data.by)).toEqual(['first', 'rival', 'second']);
    expect({ conflicts, sleeps }).toEqual({ conflicts: [], sleeps: [] });
  });

  it('judges a refusal, a no-op and an expected_revision on the latest revision, not on the cache', async () => {
    const { store, events, rival } = counted();
    const { repository } = repositoryOn(store);
    await repository.transact(ctx('c-0'), countMe('first'));
    await rival();
    // Refused on the cached state (1 event), accepted on the stream's (2 events).
    const atLeastTwo = (state: number): Counted[] => {
      if (state < 2) throw new ApiError('invariant_violated', 'needs two');
      return [{ type: 'Counted', data: { by: 'second' } }];
    };
    await expect(repository.transact(ctx('c-1'), atLeastTwo)).resolves.toMatchObject({ before: 2 });
    await rival();
    // A no-op answers with the latest revision.
    await expect(repository.transact(ctx('c-2'), () => [])).resolves.toMatchObject({ revision: 3n, events: [] });
    await rival();
    // The caller's expected_revision is the stream's (4), not the cache's (3): accepted.
    await expect(repository.transact(ctx('c-3', { expectedRevision: 4n }), countMe('third'))).resolves.toMatchObject({
      revision: 5n,
    });
    expect(events.map((e) => e.data.by)).toEqual(['first', 'rival', 'second', 'rival', 'rival', 'third']);
  });
});

describe('idempotency keys and their fingerprints', () => {
  const key = (fingerprint: string) => ctx('key-1', { fingerprint });

  it('replays the first result for the same key and request, and refuses another request with 422', async () => {
    const { store, events } = contendedStore(0);
    const { repository } = repositoryOn(store);
    const first = await repository.transact(key('sha256:a'), countMe('first'));
    const again = await repository.transact(key('sha256:a'), countMe('second'));
    expect(again).toMatchObject({ repeated: true, revision: first.revision, events: first.events });
    const error = await repository.transact(key('sha256:b'), countMe('other')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'idempotency_key_reused', details: { agent_id: 'a' } });
    expect(events.map((e) => [e.data.by, e.metadata.command_fingerprint])).toEqual([['first', 'sha256:a']]);
  });

  it('finds the fingerprint in the event metadata after a restart (a fresh repository)', async () => {
    const { store } = contendedStore(0);
    await repositoryOn(store).repository.transact(key('sha256:a'), countMe('first'));
    const restarted = repositoryOn(store).repository;
    await expect(restarted.transact(key('sha256:b'), countMe('other'))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    await expect(restarted.transact(key('sha256:a'), countMe('first'))).resolves.toMatchObject({ repeated: true });
  });

  it('replays a key written before fingerprints were kept, whatever the request (as before)', async () => {
    const { store, events } = contendedStore(0);
    await repositoryOn(store).repository.transact(ctx('key-1'), countMe('old'));
    expect(events[0].metadata.command_fingerprint).toBeUndefined();
    await expect(repositoryOn(store).repository.transact(key('sha256:new'), countMe('new'))).resolves.toMatchObject({
      repeated: true,
    });
  });

  it("keeps callers' keys while the scheduler writes more than a window of its own commands", async () => {
    const { store, events } = contendedStore(0);
    const { repository } = repositoryOn(store);
    await repository.transact(key('sha256:a'), countMe('caller'));
    for (let i = 0; i < 1001; i++)
      await repository.transact(ctx(`sched:${i}`, { scope: 'scheduler' }), countMe('scheduler'));
    expect(events[1].metadata).toMatchObject({ command_scope: 'scheduler' });
    for (const fresh of [repository, repositoryOn(store).repository]) {
      await expect(fresh.transact(key('sha256:a'), countMe('caller'))).resolves.toMatchObject({ repeated: true });
      await expect(fresh.transact(key('sha256:b'), countMe('other'))).rejects.toMatchObject({
        code: 'idempotency_key_reused',
      });
    }
    expect(events).toHaveLength(1002);
  });
});

describe('what the repository reports to the metrics (ADR 0032)', () => {
  const recording = () => {
    const seen = { appends: 0, conflicts: [] as boolean[] };
    const metrics = {
      appendObserved: () => void (seen.appends += 1),
      appendConflict: (retried: boolean) => void seen.conflicts.push(retried),
      schedulerDecision: () => undefined,
      leaseExpired: () => undefined,
      recovered: () => undefined,
      timerLateness: () => undefined,
    };
    return { seen, metrics };
  };

  it('counts each beaten append (retried, then the last one given up) and only the appends that landed', async () => {
    const { seen, metrics } = recording();
    const landed = new AgentRepository(contendedStore(2).store, noSnapshots, counter, {
      retry: { random: () => 0, sleep: async () => undefined },
      metrics,
    });
    await landed.transact(ctx('c-1'), countMe('me'));
    expect(seen).toEqual({ appends: 1, conflicts: [true, true] });

    const { seen: lost, metrics: lostMetrics } = recording();
    const givenUp = new AgentRepository(contendedStore(100).store, noSnapshots, counter, {
      maxRetries: 1,
      retry: { random: () => 0, sleep: async () => undefined },
      metrics: lostMetrics,
    });
    await expect(givenUp.transact(ctx('c-1'), countMe('me'))).rejects.toMatchObject({ code: 'contention' });
    expect(lost).toEqual({ appends: 0, conflicts: [true, false] });
  });
});

describe('AgentRepository: its cache is bounded by bytes and counts hits and misses', () => {
  it('given agents past the byte bound, then the least recently used one is folded again (a miss)', async () => {
    const streams = new Map<string, ReturnType<typeof contendedStore>>();
    const storeOf = (stream: string) => {
      if (!streams.has(stream)) streams.set(stream, contendedStore(0));
      return streams.get(stream)!.store;
    };
    const store = {
      readStream: (stream: string, options?: { from_revision?: bigint }) => storeOf(stream).readStream(stream, options),
      appendToStream: (stream: string, batch: EventToAppend[], expected: bigint) =>
        storeOf(stream).appendToStream(stream, batch, expected),
    } as unknown as EventStore;
    const lookups: boolean[] = [];
    const metrics = {
      appendObserved: () => undefined,
      appendConflict: () => undefined,
      schedulerDecision: () => undefined,
      leaseExpired: () => undefined,
      recovered: () => undefined,
      timerLateness: () => undefined,
      agentCacheLookup: (hit: boolean) => lookups.push(hit),
    };
    // A counter's state is a number (1 JSON byte or 2); each event adds about 64 + its data: two agents fit, not three.
    const repository = new AgentRepository(store, noSnapshots, counter, { cacheMaxBytes: 200, metrics });
    const write = (agentId: string) =>
      repository.transact({ agentId, commandId: `c-${agentId}-${lookups.length}`, actor: 'test' }, () => [
        { type: 'Counted', data: { by: 'me' } },
      ]);
    await write('a');
    await write('b');
    lookups.length = 0;
    await repository.load('a');
    await repository.load('b');
    expect(lookups).toEqual([true, true]);
    await write('c');
    lookups.length = 0;
    await repository.load('a'); // a was the least recently used when c came: folded again
    expect(lookups).toEqual([false]);
  });

  it('given a load that does not keep, then an agent not cached is folded and left out; a cached one is refreshed', async () => {
    const { store } = contendedStore(0);
    const repository = new AgentRepository(store, noSnapshots, counter);
    await repository.transact(ctx('c-1'), countMe('me'));
    const other = new AgentRepository(store, noSnapshots, counter);
    expect((await other.load('a', { keep: false })).state).toBe(1);
    expect(other.peek('a')).toBeNull();
    expect((await other.load('a')).state).toBe(1);
    expect(other.peek('a')).toBe(1);
    await repository.transact(ctx('c-2'), countMe('me'));
    expect((await other.load('a', { keep: false })).state).toBe(2);
    expect(other.peek('a')).toBe(2);
  });
});
