import { DEFAULT_SCHEDULER_SHARDS, shardOf } from './shard-hash';

describe('shardOf: the stable hash of an agent id to its scheduler shard', () => {
  it('given the same id and shard count, then every replica computes the same shard (FNV-1a 32 of the UTF-8 bytes)', () => {
    // Fixed values: a change of the hash would move every agent to another shard, so it is pinned.
    expect(shardOf('', 2 ** 31)).toBe(0x811c9dc5 % 2 ** 31);
    expect(shardOf('a', 2 ** 32)).toBe(0xe40c292c);
    expect(shardOf('foobar', 2 ** 32)).toBe(0xbf9cf968);
    expect(shardOf('agent-1', DEFAULT_SCHEDULER_SHARDS)).toBe(shardOf('agent-1', DEFAULT_SCHEDULER_SHARDS));
  });

  it('given non-ASCII ids, then they hash by their UTF-8 bytes', () => {
    expect(shardOf('é', 2 ** 32)).not.toBe(shardOf('e', 2 ** 32));
    expect(shardOf('agent-日本', 256)).toBeGreaterThanOrEqual(0);
  });

  it('given many ids, then each lands in [0, shards) and the shards fill about evenly', () => {
    const counts = new Array<number>(DEFAULT_SCHEDULER_SHARDS).fill(0);
    let outside = 0;
    for (let i = 0; i < 25_600; i++) {
      const shard = shardOf(`agent-${i}`, DEFAULT_SCHEDULER_SHARDS);
      if (!Number.isInteger(shard) || shard < 0 || shard >= DEFAULT_SCHEDULER_SHARDS) outside += 1;
      else counts[shard] += 1;
    }
    expect(outside).toBe(0);
    // 100 per shard on average: none empty, none more than twice the mean.
    expect(Math.min(...counts)).toBeGreaterThan(40);
    expect(Math.max(...counts)).toBeLessThan(200);
  });

  it('given one shard, then every agent is in shard 0; given a bad count, then it throws', () => {
    expect(shardOf('anything', 1)).toBe(0);
    expect(() => shardOf('a', 0)).toThrow(RangeError);
    expect(() => shardOf('a', 1.5)).toThrow(RangeError);
  });
});
