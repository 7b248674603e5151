/** The default number of scheduler shards (SCHEDULER_SHARDS). */
export const DEFAULT_SCHEDULER_SHARDS = 256;

const encoder = new TextEncoder();

/**
 * The shard of an agent: FNV-1a (32 bit) of the agent id's UTF-8 bytes, modulo `shards`. Stable
 * across processes, versions and platforms (no seed, no Node hash), so every replica agrees on it;
 * changing SCHEDULER_SHARDS moves agents between shards, so every replica must use the same value.
 */
export function shardOf(agentId: string, shards: number): number {
  if (!Number.isInteger(shards) || shards < 1) throw new RangeError(`shards must be a positive integer, got ${shards}`);
  return shardKeyOf(agentId) % shards;
}

/** FNV-1a (32 bit, unsigned) of the agent id's UTF-8 bytes: `shardOf` is this modulo the shards (stored as scheduler_agenda.shard_key). */
export function shardKeyOf(agentId: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(agentId)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
