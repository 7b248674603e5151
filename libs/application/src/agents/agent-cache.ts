import { LRUCache } from 'lru-cache';
import type { RuntimeMetrics } from '@app/core';

/** AGENT_CACHE_MAX_BYTES when unset: 256 MiB of states (their JSON size). */
export const DEFAULT_AGENT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

export interface AgentCacheOptions {
  /** About how many bytes of states the cache holds at most (AGENT_CACHE_MAX_BYTES). */
  maxBytes?: number;
  /** At most this many agents (default: bounded by bytes only). */
  maxEntries?: number;
  metrics?: RuntimeMetrics;
}

/**
 * The command side's in-memory agents, bounded by bytes (lru-cache: the least recently used
 * leave first). An entry's size is its `bytes`: the JSON size of the state when it was folded
 * (a miss pays that once: the fold read and parsed as much), plus about what each event since
 * added. Lookups are counted as hits and misses (the metrics' hit ratio).
 */
export class AgentCache<V extends { bytes?: number }> {
  private readonly cache: LRUCache<string, V>;

  constructor(private readonly options: AgentCacheOptions = {}) {
    this.cache = new LRUCache<string, V>({
      maxSize: options.maxBytes ?? DEFAULT_AGENT_CACHE_MAX_BYTES,
      ...(options.maxEntries === undefined ? {} : { max: options.maxEntries }),
      sizeCalculation: (value) => Math.max(1, Math.round(value.bytes ?? 1)),
    });
  }

  /** The agent's entry (now the most recently used), counted as a hit or a miss. */
  get(agentId: string): V | undefined {
    const value = this.cache.get(agentId);
    this.options.metrics?.agentCacheLookup?.(value !== undefined);
    return value;
  }

  /** The entry without counting or touching its recency (hints). */
  peek(agentId: string): V | undefined {
    return this.cache.peek(agentId);
  }

  set(agentId: string, value: V): void {
    this.cache.set(agentId, value);
    this.options.metrics?.agentCacheSize?.(this.cache.calculatedSize, this.cache.size);
  }

  /** About how many bytes the entries take, and how many there are. */
  get bytes(): number {
    return this.cache.calculatedSize;
  }

  get size(): number {
    return this.cache.size;
  }
}

/** The JSON size of a state (what a miss measures). */
export function jsonBytes(state: unknown): number {
  return JSON.stringify(state)?.length ?? 0;
}

/** What events add to a state, about: their data's JSON size and a little for the record around it. */
export function eventBytes(events: ReadonlyArray<{ data: unknown }>): number {
  let bytes = 0;
  for (const event of events) bytes += 64 + (JSON.stringify(event.data)?.length ?? 0);
  return bytes;
}
