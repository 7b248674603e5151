import { initialAgentState } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { FedSubscription } from '@app/event-store/testing';
import type { SchedulerStepService, StepResult } from './scheduler-step.service';
import type { AgentDirectory } from '@app/core';
import { SchedulerWorker, type WorkerLogger } from './scheduler-worker';

/** A step service whose settle() for an agent can be held open until the spec releases it. */
class FakeSteps {
  readonly calls: string[] = [];
  private readonly held = new Map<string, Array<() => void>>();
  hold = new Set<string>();
  failNext = new Set<string>();

  async settle(agentId: string): Promise<StepResult | null> {
    this.calls.push(agentId);
    if (this.hold.has(agentId))
      await new Promise<void>((resolve) => this.held.set(agentId, [...(this.held.get(agentId) ?? []), resolve]));
    if (this.failNext.delete(agentId)) throw new Error('store unavailable');
    return { state: initialAgentState() } as StepResult;
  }

  release(agentId: string): void {
    this.hold.delete(agentId);
    for (const resolve of this.held.get(agentId) ?? []) resolve();
    this.held.delete(agentId);
  }

  running(): string[] {
    return [...this.held.keys()];
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SchedulerWorker: evaluations per agent, coalesced, on events and deadlines', () => {
  let subscription: FedSubscription;
  let steps: FakeSteps;
  let logger: WorkerLogger & { error: jest.Mock };
  let store: EventStore & { subscribeToAll: jest.Mock };
  const directory = (agentIds: string[], projectedUpTo: bigint | null = null): AgentDirectory => ({
    agentIds: async () => agentIds,
    projectedUpTo: async () => projectedUpTo,
  });
  const workerWith = (agents: AgentDirectory, options = {}) =>
    new SchedulerWorker(store, steps as unknown as SchedulerStepService, agents, logger, options);

  beforeEach(() => {
    subscription = new FedSubscription();
    steps = new FakeSteps();
    logger = { error: jest.fn(), info: jest.fn() };
    store = { subscribeToAll: jest.fn(() => subscription) } as unknown as EventStore & { subscribeToAll: jest.Mock };
  });

  it('evaluates every registered agent at start and subscribes after what the read model covers', async () => {
    const worker = workerWith(directory(['a', 'b'], 41n));
    await worker.start();
    await worker.idle();
    expect(steps.calls.sort()).toEqual(['a', 'b']);
    expect(store.subscribeToAll).toHaveBeenCalledWith({ after_position: 41n });
    await worker.stop();
  });

  it('folds a burst of pokes for an agent under evaluation into one more pass', async () => {
    const counted = { schedulerEvaluated: jest.fn() };
    const worker = workerWith(directory([]), { metrics: counted });
    await worker.start();
    steps.hold.add('a');
    worker.poke('a');
    for (let i = 0; i < 5; i++) worker.poke('a');
    await flush();
    expect(steps.calls).toEqual(['a']);
    steps.release('a');
    await worker.idle();
    expect(steps.calls).toEqual(['a', 'a']);
    expect(worker.evaluations).toBe(2);
    expect(counted.schedulerEvaluated).toHaveBeenCalledTimes(2);
    await worker.stop();
  });

  it('evaluates different agents side by side, up to the concurrency limit', async () => {
    const worker = workerWith(directory([]), { concurrency: 2 });
    await worker.start();
    ['a', 'b', 'c'].forEach((id) => steps.hold.add(id));
    ['a', 'b', 'c'].forEach((id) => worker.poke(id));
    await flush();
    expect(steps.running().sort()).toEqual(['a', 'b']);
    steps.release('a');
    await flush();
    expect(steps.running().sort()).toEqual(['b', 'c']);
    steps.release('b');
    steps.release('c');
    await worker.idle();
    expect(steps.calls).toEqual(['a', 'b', 'c']);
    await worker.stop();
  });

  it('pokes the agent of each event the subscription delivers, and nothing for other streams', async () => {
    const worker = workerWith(directory([]));
    await worker.start();
    subscription.deliver('agent-x');
    subscription.deliver('projection-checkpoints');
    await flush();
    await worker.idle();
    expect(steps.calls).toEqual(['x']);
    await worker.stop();
  });

  it('logs a failed evaluation and evaluates the agent again after the retry delay', async () => {
    jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z'), doNotFake: ['setImmediate'] });
    try {
      const worker = workerWith(directory([]), { now: () => Date.now() });
      await worker.start();
      steps.failNext.add('a');
      worker.poke('a');
      await worker.idle();
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({ agent_id: 'a' }),
        expect.stringContaining('retrying'),
      );
      jest.advanceTimersByTime(1_999);
      expect(steps.calls).toEqual(['a']);
      jest.advanceTimersByTime(1);
      await worker.idle();
      expect(steps.calls).toEqual(['a', 'a']);
      await worker.stop();
    } finally {
      jest.useRealTimers();
    }
  });

  it('ignores pokes once stopped', async () => {
    const worker = workerWith(directory([]));
    await worker.start();
    await worker.stop();
    worker.poke('a');
    await worker.idle();
    expect(steps.calls).toEqual([]);
  });
});
