import { initialAgentState } from '@app/domain';
import type { EventStore, StoredEvent, Subscription } from '@app/event-store';
import type { AgentDirectory } from '@app/core';
import type { AgentOwnershipChange, LeaseAudit } from '@app/read-models';
import { LeaseLostError, type SchedulerStepService, type StepOptions, type StepResult } from './scheduler-step.service';
import { type AgentOwnership, SchedulerWorker } from './scheduler-worker';

/** A subscription that delivers nothing (the spec pokes by hand). */
const quiet: Subscription = {
  stop: async () => undefined,
  async *[Symbol.asyncIterator](): AsyncIterator<StoredEvent> {},
};

/** Ownership decided by the spec: the agents in `mine` are this replica's. */
class FakeOwnership implements AgentOwnership {
  mine = new Set<string>();
  private listener?: (change: AgentOwnershipChange) => void;
  start = jest.fn(async () => undefined);
  stop = jest.fn(async () => undefined);

  leaseOf(agentId: string): LeaseAudit | null {
    return this.mine.has(agentId)
      ? { lease_group: 'scheduler', lease_shard: 7, lease_epoch: 2, lease_owner: 'me' }
      : null;
  }

  lapsed(): boolean {
    return false;
  }

  onChange(listener: (change: AgentOwnershipChange) => void): () => void {
    this.listener = listener;
    return () => (this.listener = undefined);
  }

  move(gained: string[], lost: string[]): void {
    gained.forEach((id) => this.mine.add(id));
    lost.forEach((id) => this.mine.delete(id));
    this.listener?.({
      gained: (id) => gained.includes(id),
      lost: (id) => lost.includes(id),
      gainedAny: gained.length > 0,
      lostAny: lost.length > 0,
    });
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SchedulerWorker with shard ownership (ADR 0035)', () => {
  let ownership: FakeOwnership;
  let calls: Array<{ agentId: string; lease: LeaseAudit | null }>;
  let settle: (agentId: string, options: Pick<StepOptions, 'fence'>) => Promise<StepResult | null>;
  const store = { subscribeToAll: () => quiet } as unknown as EventStore;
  const directory = (ids: string[]): AgentDirectory => ({ agentIds: async () => ids, projectedUpTo: async () => null });
  const worker = (ids: string[]) =>
    new SchedulerWorker(
      store,
      {
        settle: (agentId: string, _max: number, options: Pick<StepOptions, 'fence'>) => settle(agentId, options),
      } as unknown as SchedulerStepService,
      directory(ids),
      { error: jest.fn(), info: jest.fn() },
      { ownership },
    );

  beforeEach(() => {
    ownership = new FakeOwnership();
    calls = [];
    settle = async (agentId, options) => {
      calls.push({ agentId, lease: (await options.fence?.()) ?? null });
      return { state: initialAgentState() } as StepResult;
    };
  });

  it('given the shards it holds, when it starts, then it takes its leases first and evaluates only its own agents', async () => {
    ownership.mine = new Set(['a', 'c']);
    const w = worker(['a', 'b', 'c']);
    await w.start();
    await w.idle();
    expect(ownership.start).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.agentId).sort()).toEqual(['a', 'c']);
    expect(calls[0].lease).toMatchObject({ lease_shard: 7, lease_epoch: 2, lease_owner: 'me' });
    await w.stop();
    expect(ownership.stop).toHaveBeenCalledTimes(1);
  });

  it("given another replica's agent, when its event arrives, then the poke is ignored", async () => {
    const w = worker([]);
    await w.start();
    w.poke('theirs');
    await w.idle();
    expect(calls).toEqual([]);
    await w.stop();
  });

  it('given a rebalance, then the agents of gained shards are evaluated and those of lost shards are dropped', async () => {
    ownership.mine = new Set(['a']);
    const w = worker(['a', 'b']);
    await w.start();
    await w.idle();
    calls = [];
    ownership.move(['b'], ['a']);
    await flush();
    await w.idle();
    expect(calls.map((c) => c.agentId)).toEqual(['b']);
    w.poke('a');
    await w.idle();
    expect(calls.map((c) => c.agentId)).toEqual(['b']);
    await w.stop();
  });

  it('given the lease lost during a step, then the step stops quietly and nothing is retried', async () => {
    ownership.mine = new Set(['a']);
    const errors = jest.fn();
    settle = async (agentId) => {
      calls.push({ agentId, lease: null });
      ownership.mine.delete(agentId);
      throw new LeaseLostError(agentId);
    };
    const w = new SchedulerWorker(
      store,
      { settle: (agentId: string) => settle(agentId, {}) } as unknown as SchedulerStepService,
      directory(['a']),
      { error: errors, info: jest.fn() },
      { ownership },
    );
    await w.start();
    await w.idle();
    expect(calls).toHaveLength(1);
    expect(errors).not.toHaveBeenCalled();
    await w.stop();
  });
});
