import type { Pool } from 'pg';
import { isolatedDatabaseUrl, testPool } from '../testing';
import { LeaseTable } from './lease-table';

/**
 * The lease round on real Postgres (migration 0015): claim, renew, expire, release, rebalance,
 * epochs. A lapse is set directly in the row (its expiry moved into the past), so no spec waits
 * for a TTL but the last.
 */
describe('LeaseTable: shard leases in Postgres', () => {
  let pool: Pool;
  let group = 0;
  const TTL = 60_000;
  const fresh = async (shards: number) => {
    const table = new LeaseTable(pool, `g${(group += 1)}`, shards);
    await table.prepare();
    return table;
  };
  const lapse = (table: LeaseTable, owner: string) =>
    pool.query(
      `UPDATE ownership_leases SET expires_at = now() - interval '1 second' WHERE lease_group = $1 AND owner = $2`,
      [table.group, owner],
    );
  const leave = (table: LeaseTable, owner: string) =>
    pool.query(
      `UPDATE ownership_members SET expires_at = now() - interval '1 second' WHERE lease_group = $1 AND owner = $2`,
      [table.group, owner],
    );
  const shardsOf = (held: Array<{ shard: number }>) => held.map((h) => h.shard);

  beforeAll(async () => {
    pool = await testPool(8, await isolatedDatabaseUrl('leases'));
  });
  afterAll(() => pool.end());

  it('given free shards and one replica, when it runs a round, then it claims every shard at epoch 1', async () => {
    const table = await fresh(8);
    const held = await table.round('a', TTL);
    expect(shardsOf(held)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(held.every((h) => h.epoch === 1 && h.how === 'claimed')).toBe(true);
  });

  it('given a replica holding its shards, when it runs another round, then it renews them: same epoch', async () => {
    const table = await fresh(4);
    await table.round('a', TTL);
    const again = await table.round('a', TTL);
    expect(again.map((h) => [h.shard, h.epoch, h.how])).toEqual([
      [0, 1, 'renewed'],
      [1, 1, 'renewed'],
      [2, 1, 'renewed'],
      [3, 1, 'renewed'],
    ]);
  });

  it('given one replica holds every shard, when a second joins, then the first releases half and the second claims them', async () => {
    const table = await fresh(8);
    await table.round('a', TTL);
    expect(await table.round('b', TTL)).toEqual([]); // nothing free yet: b is counted from now on
    expect(shardsOf(await table.round('a', TTL))).toEqual([0, 1, 2, 3]); // a keeps its share, frees 4..7
    const b = await table.round('b', TTL);
    expect(shardsOf(b)).toEqual([4, 5, 6, 7]);
    expect(b.every((h) => h.epoch === 2 && h.how === 'claimed')).toBe(true);
    const rows = await table.rows();
    expect(rows.map((r) => r.owner)).toEqual(['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']);
  });

  it('given three replicas, when they run rounds until nothing moves, then each holds about a third', async () => {
    const table = await fresh(256);
    const owners = ['a', 'b', 'c'];
    const held = new Map<string, number[]>();
    for (let pass = 0; pass < 4; pass++)
      for (const owner of owners) held.set(owner, shardsOf(await table.round(owner, TTL)));
    const sizes = owners.map((owner) => held.get(owner)!.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(256);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(86);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(84);
    const all = owners.flatMap((owner) => held.get(owner)!);
    expect(new Set(all).size).toBe(256); // no shard held twice
  });

  it('given a replica that stopped renewing, when its leases lapse, then another claims them with the epoch raised', async () => {
    const table = await fresh(4);
    await table.round('a', TTL);
    await table.round('b', TTL);
    await table.round('a', TTL); // a keeps 0,1
    await table.round('b', TTL); // b claims 2,3 (epoch 2)
    await lapse(table, 'a');
    await leave(table, 'a');
    const b = await table.round('b', TTL);
    expect(b.map((h) => [h.shard, h.epoch, h.how])).toEqual([
      [0, 2, 'claimed'],
      [1, 2, 'claimed'],
      [2, 2, 'renewed'],
      [3, 2, 'renewed'],
    ]);
    // a wakes up: its next round does not renew what b now holds; it is a member again and gets its share later.
    expect(await table.round('a', TTL)).toEqual([]);
  });

  it('given a replica that lost its shards, when it reclaims one, then the epoch goes up again', async () => {
    const table = await fresh(1);
    expect((await table.round('a', TTL))[0].epoch).toBe(1);
    await lapse(table, 'a');
    const again = await table.round('a', TTL);
    expect(again).toEqual([{ shard: 0, epoch: 2, how: 'claimed' }]);
  });

  it('given a clean stop, when the replica releases, then a standby claims at once', async () => {
    const table = await fresh(1);
    await table.round('active', TTL);
    expect(await table.round('standby', TTL)).toEqual([]);
    await table.release('active');
    expect(await table.round('standby', TTL)).toEqual([{ shard: 0, epoch: 2, how: 'claimed' }]);
  });

  it("given a restart on a database only this process reaches, when it takes over, then the dead run's leases are claimable at once", async () => {
    const table = await fresh(2);
    await table.round('crashed-run', TTL);
    expect(await table.round('restarted', TTL)).toEqual([]);
    await table.prepare({ takeOver: true });
    const held = await table.round('restarted', TTL);
    expect(held.map((h) => [h.shard, h.epoch])).toEqual([
      [0, 2],
      [1, 2],
    ]);
  });

  it('given two replicas claiming the same free shards at once, then no shard is given to both', async () => {
    const table = await fresh(64);
    const owners = ['a', 'b', 'c', 'd'];
    const rounds = await Promise.all(owners.map((owner) => table.round(owner, TTL)));
    const all = rounds.flatMap(shardsOf);
    expect(new Set(all).size).toBe(all.length);
  });

  it('given a real TTL, when the owner stops renewing, then its lease is free after the TTL', async () => {
    const table = await fresh(1);
    await table.round('a', 300);
    expect(await table.round('b', 300)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await table.round('b', 300)).toEqual([{ shard: 0, epoch: 2, how: 'claimed' }]);
  });
});
