import { initialAgentState } from '@app/domain';
import type { AgentDirectory } from '@app/core';
import type { EventStore } from '@app/event-store';
import { FedSubscription } from '@app/event-store/testing';
import type { SchedulerStepService, StepResult } from './scheduler-step.service';
import { SchedulerWorker } from './scheduler-worker';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The worker's own writes come back through the subscription: an evaluation that ended on the
 * stream's revision R already saw every event up to R, so those events ask for no second one
 * (it would decide the same on the same state). A later event, from anyone, still does.
 */
describe('SchedulerWorker: events its last evaluation saw ask for no evaluation', () => {
  let feed: FedSubscription;
  let calls: string[];
  let revisionOf: Map<string, string | null>;
  let release: (() => void) | null;
  let worker: SchedulerWorker;

  beforeEach(async () => {
    feed = new FedSubscription();
    calls = [];
    revisionOf = new Map();
    release = null;
    const steps = {
      settle: async (agentId: string): Promise<StepResult> => {
        calls.push(agentId);
        if (agentId === 'held') await new Promise<void>((resolve) => (release = resolve));
        return { state: initialAgentState(), revision: revisionOf.get(agentId) ?? null } as StepResult;
      },
    };
    const store = { subscribeToAll: () => feed } as unknown as EventStore;
    const directory: AgentDirectory = { agentIds: async () => [], projectedUpTo: async () => null };
    worker = new SchedulerWorker(store, steps as unknown as SchedulerStepService, directory, {
      error: () => undefined,
      info: () => undefined,
    });
    await worker.start();
  });

  afterEach(() => worker.stop());

  it('skips the events at or before the revision evaluated, and evaluates on a later one', async () => {
    revisionOf.set('a', '7');
    worker.poke('a');
    await worker.idle();
    feed.deliver('agent-a', 5n);
    feed.deliver('agent-a', 7n);
    await flush();
    await worker.idle();
    expect(calls).toEqual(['a']);
    feed.deliver('agent-a', 8n);
    await flush();
    await worker.idle();
    expect(calls).toEqual(['a', 'a']);
    expect(worker.evaluations).toBe(2);
  });

  it('skips the events that arrive during the evaluation that wrote them', async () => {
    revisionOf.set('held', '3');
    worker.poke('held');
    await flush();
    feed.deliver('agent-held', 2n);
    feed.deliver('agent-held', 3n);
    await flush();
    release!();
    await worker.idle();
    expect(calls).toEqual(['held']);
  });

  it('still evaluates again for a deadline or any other poke, and for an agent whose revision is unknown', async () => {
    revisionOf.set('a', '7');
    worker.poke('a');
    await worker.idle();
    worker.poke('a');
    await worker.idle();
    expect(calls).toEqual(['a', 'a']);
    revisionOf.set('b', null);
    worker.poke('b');
    await worker.idle();
    feed.deliver('agent-b', 0n);
    await flush();
    await worker.idle();
    expect(calls).toEqual(['a', 'a', 'b', 'b']);
  });
});
