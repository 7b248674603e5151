import type { Pool } from 'pg';
import { setTimeout as delay } from 'node:timers/promises';
import { isolatedDatabaseUrl, testPool } from '../testing';
import { LeaseKeeper } from './lease-keeper';
import { LeaseKeepers } from './lease-readiness';
import { LeaseTable } from './lease-table';

/**
 * The readiness rule of the lease keepers (ADR 0036): a replica is not ready when it holds no
 * lease of its group, it started more than one TTL ago, and a lease of the group has been free
 * for longer than one TTL. Keepers renew only when told (autoRenew false); their local clock is
 * moved by hand, the database's runs.
 */
describe('LeaseKeeper.missingLease: readiness of a replica that should hold leases', () => {
  const TTL = 400;
  let pool: Pool;
  let group = 0;
  let clock = 0;
  const keeper = (table: LeaseTable, owner: string) =>
    new LeaseKeeper(table, { ttlMs: TTL, owner, autoRenew: false, now: () => clock });

  beforeAll(async () => {
    pool = await testPool(4, await isolatedDatabaseUrl('lease_ready'));
  });
  afterAll(() => pool.end());

  it('given a standby while the active replica renews, then both are ready; once the lease has been free past the TTL, the standby is not, until it claims it', async () => {
    const table = new LeaseTable(pool, `p${(group += 1)}`, 1);
    const active = keeper(table, 'active');
    const standby = keeper(table, 'standby');
    const keepers = new LeaseKeepers();
    keepers.register(active);
    keepers.register(standby);
    await active.start();
    await standby.start();
    expect(standby.shards()).toEqual([]);
    clock += TTL * 2;
    await active.round();
    expect(await keepers.missingLease()).toBeNull();

    active.suspend(); // hung: it neither renews nor releases
    clock += TTL * 2; // its local deadline passed: it holds nothing either
    await delay(TTL * 2 + 100); // the lease lapsed in the database more than one TTL ago
    expect(await standby.missingLease()).toMatch(/holds no p\d+ lease while 1 of 1 have been free for over 400 ms/);
    expect(await keepers.missingLease()).not.toBeNull();

    await standby.round();
    expect(standby.shards()).toEqual([0]);
    expect(await keepers.missingLease()).toBeNull();
    await standby.stop();
  });

  it('given a replica within its first TTL, or stopped, then it is ready whatever is free', async () => {
    const table = new LeaseTable(pool, `s${(group += 1)}`, 4);
    await table.prepare();
    const late = keeper(table, 'late');
    // Its first round failed (as when the database is slow): it holds nothing, all four are free.
    jest.spyOn(table, 'round').mockRejectedValueOnce(new Error('timeout'));
    await late.start();
    expect(late.shards()).toEqual([]);
    expect(await late.missingLease()).toBeNull();
    clock += TTL;
    expect(await late.missingLease()).toMatch(/holds no s\d+ lease while 4 of 4/);
    await late.stop();
    expect(await late.missingLease()).toBeNull();
  });
});
