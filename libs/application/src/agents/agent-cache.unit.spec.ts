import { NO_METRICS, type RuntimeMetrics } from '@app/core';
import { AgentCache, eventBytes, jsonBytes } from './agent-cache';

type Entry = { name: string; bytes?: number };

function countingMetrics() {
  const counts = { hits: 0, misses: 0, bytes: 0, entries: 0 };
  const metrics: RuntimeMetrics = {
    ...NO_METRICS,
    agentCacheLookup: (hit) => void (hit ? counts.hits++ : counts.misses++),
    agentCacheSize: (bytes, entries) => Object.assign(counts, { bytes, entries }),
  };
  return { counts, metrics };
}

describe('AgentCache: the in-memory agents bounded by bytes, least recently used out first', () => {
  it('given entries over the byte bound, then the least recently used leave first and the bytes stay under the bound', () => {
    const { counts, metrics } = countingMetrics();
    const cache = new AgentCache<Entry>({ maxBytes: 1_000, metrics });
    cache.set('a', { name: 'a', bytes: 400 });
    cache.set('b', { name: 'b', bytes: 400 });
    expect(cache.get('a')?.name).toBe('a'); // a is now the most recently used
    cache.set('c', { name: 'c', bytes: 400 }); // over 1000: b leaves
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')?.name).toBe('a');
    expect(cache.peek('c')?.name).toBe('c');
    expect(cache.bytes).toBe(800);
    expect(counts).toMatchObject({ bytes: 800, entries: 2 });
  });

  it('given lookups, then hits and misses are counted (peek is not a lookup)', () => {
    const { counts, metrics } = countingMetrics();
    const cache = new AgentCache<Entry>({ maxBytes: 1_000, metrics });
    cache.set('a', { name: 'a', bytes: 10 });
    cache.get('a');
    cache.get('a');
    cache.get('missing');
    cache.peek('a');
    expect(counts).toMatchObject({ hits: 2, misses: 1 });
  });

  it('given an entry larger than the whole bound, then it is not kept', () => {
    const cache = new AgentCache<Entry>({ maxBytes: 100 });
    cache.set('huge', { name: 'huge', bytes: 101 });
    expect(cache.peek('huge')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('given an entry bound as well, then both bounds hold', () => {
    const cache = new AgentCache<Entry>({ maxBytes: 1_000_000, maxEntries: 2 });
    ['a', 'b', 'c'].forEach((name) => cache.set(name, { name, bytes: 1 }));
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBeUndefined();
  });

  it('measures a state by its JSON size and events by their data plus a little', () => {
    expect(jsonBytes({ a: 'xy' })).toBe('{"a":"xy"}'.length);
    expect(eventBytes([{ data: { a: 1 } }, { data: {} }])).toBe(64 + 7 + 64 + 2);
  });
});
