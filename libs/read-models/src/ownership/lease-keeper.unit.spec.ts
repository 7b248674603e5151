import { type LeaseChange, LeaseKeeper } from './lease-keeper';
import type { HeldShard, LeaseTable } from './lease-table';

/** A lease table whose next round answers what the spec says (the SQL has its own integration spec). */
function fakeTable(group = 'scheduler') {
  const calls: string[] = [];
  let answer: HeldShard[] | Error = [];
  const table = {
    group,
    shards: 4,
    prepare: async () => void calls.push('prepare'),
    round: async () => {
      calls.push('round');
      if (answer instanceof Error) throw answer;
      return answer;
    },
    release: async (owner: string) => void calls.push(`release:${owner}`),
  } as unknown as LeaseTable;
  return { table, calls, answer: (next: HeldShard[] | Error) => (answer = next) };
}

const held = (shard: number, epoch = 1, how: HeldShard['how'] = 'claimed'): HeldShard => ({ shard, epoch, how });

describe('LeaseKeeper: what a replica may act on, between lease rounds', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => (clock = 1_000));

  const keeperOn = (fake: ReturnType<typeof fakeTable>) => {
    const keeper = new LeaseKeeper(fake.table, { ttlMs: 1_000, owner: 'me', now, autoRenew: false });
    const changes: LeaseChange[] = [];
    keeper.onChange((change) => changes.push(change));
    return { keeper, changes };
  };

  it('given a round that claims shards, when started, then it holds them and announces the gain', async () => {
    const fake = fakeTable();
    fake.answer([held(0), held(2)]);
    const { keeper, changes } = keeperOn(fake);
    await keeper.start();
    expect(fake.calls).toEqual(['prepare', 'round']);
    expect(keeper.shards()).toEqual([0, 2]);
    expect(keeper.lease(2)).toEqual({ lease_group: 'scheduler', lease_shard: 2, lease_epoch: 1, lease_owner: 'me' });
    expect(keeper.lease(1)).toBeNull();
    expect(changes).toEqual([{ gained: [0, 2], lost: [] }]);
  });

  it('given held shards, when a round renews them, then nothing is announced', async () => {
    const fake = fakeTable();
    fake.answer([held(0)]);
    const { keeper, changes } = keeperOn(fake);
    await keeper.start();
    fake.answer([held(0, 1, 'renewed')]);
    clock += 300;
    await keeper.round();
    expect(changes).toHaveLength(1);
    expect(keeper.lease(0)?.lease_epoch).toBe(1);
  });

  it('given held shards, when a round no longer answers one, then it is lost at once', async () => {
    const fake = fakeTable();
    fake.answer([held(0), held(1)]);
    const { keeper, changes } = keeperOn(fake);
    await keeper.start();
    fake.answer([held(0, 1, 'renewed')]);
    await keeper.round();
    expect(keeper.shards()).toEqual([0]);
    expect(changes[1]).toEqual({ gained: [], lost: [1] });
  });

  it('given a replica that is paused past its deadline (no round ran), then it holds nothing until a round gives the shards back', async () => {
    const fake = fakeTable();
    fake.answer([held(3)]);
    const { keeper, changes } = keeperOn(fake);
    await keeper.start();
    clock += 899; // the local deadline is the round's send time plus 0.9 TTL
    expect(keeper.lease(3)).not.toBeNull();
    clock += 1;
    expect(keeper.lease(3)).toBeNull();
    expect(keeper.shards()).toEqual([]);
    // It wakes and its round renews the shard (nobody claimed it): it is announced as lost and gained again.
    fake.answer([held(3, 1, 'renewed')]);
    await keeper.round();
    expect(changes[1]).toEqual({ gained: [3], lost: [3] });
    expect(keeper.lease(3)).not.toBeNull();
  });

  it('given a shard claimed again under a new epoch, then the change names it as lost and gained, and the lease the new epoch', async () => {
    const fake = fakeTable();
    fake.answer([held(1)]);
    const { keeper, changes } = keeperOn(fake);
    await keeper.start();
    fake.answer([held(1, 3)]);
    await keeper.round();
    expect(changes[1]).toEqual({ gained: [1], lost: [1] });
    expect(keeper.lease(1)?.lease_epoch).toBe(3);
  });

  it('given a failed round, then the shards stay held until their deadline, then are lost', async () => {
    const fake = fakeTable();
    const errors: unknown[] = [];
    const keeper = new LeaseKeeper(fake.table, {
      ttlMs: 1_000,
      owner: 'me',
      now,
      autoRenew: false,
      onError: (e) => errors.push(e),
    });
    fake.answer([held(0)]);
    await keeper.start();
    fake.answer(new Error('database away'));
    clock += 500;
    await keeper.round();
    expect(errors).toHaveLength(1);
    expect(keeper.lease(0)).not.toBeNull();
    clock += 500;
    await keeper.round();
    expect(keeper.shards()).toEqual([]);
  });

  it('given a clean stop, then it releases its leases and announces the loss', async () => {
    const fake = fakeTable();
    fake.answer([held(0), held(1)]);
    const { keeper, changes } = keeperOn(fake);
    await keeper.start();
    await keeper.stop();
    expect(fake.calls).toEqual(['prepare', 'round', 'release:me']);
    expect(changes[1]).toEqual({ gained: [], lost: [0, 1] });
    expect(keeper.shards()).toEqual([]);
  });

  it('given automatic renewal, then rounds run every third of the TTL until suspended', async () => {
    jest.useFakeTimers();
    try {
      const fake = fakeTable();
      fake.answer([held(0)]);
      const keeper = new LeaseKeeper(fake.table, { ttlMs: 900, owner: 'me', now });
      await keeper.start();
      await jest.advanceTimersByTimeAsync(300);
      await jest.advanceTimersByTimeAsync(300);
      expect(fake.calls.filter((c) => c === 'round')).toHaveLength(3);
      keeper.suspend();
      await jest.advanceTimersByTimeAsync(3_000);
      expect(fake.calls.filter((c) => c === 'round')).toHaveLength(3);
      expect(fake.calls).not.toContain('release:me');
    } finally {
      jest.useRealTimers();
    }
  });
});
