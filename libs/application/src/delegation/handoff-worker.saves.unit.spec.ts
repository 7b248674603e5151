import type { EventStore, StoredEvent, Subscription } from '@app/event-store';
import type { HandoffCheckpointStore } from '@app/read-models';
import type { DelegationHandoff } from './delegation-handoff';
import { HandoffWorker } from './handoff-worker';

/** A store whose subscription delivers these events, then waits until stopped. */
function storeOf(events: StoredEvent[]): EventStore {
  return {
    subscribeToAll: (): Subscription => {
      let stop: () => void = () => undefined;
      const stopped = new Promise<void>((resolve) => (stop = resolve));
      return {
        stop: async () => stop(),
        async *[Symbol.asyncIterator]() {
          yield* events;
          await stopped;
        },
      };
    },
  } as unknown as EventStore;
}

const decision = (agent: string, position: number) =>
  ({ stream: `agent-${agent}`, type: 'SchedulerDecisionRecorded', position: BigInt(position) }) as StoredEvent;

/**
 * The hand-off saves its checkpoint at once after an event whose agent is in a delegation (a
 * crash then repeats nothing of it); an event of an agent in none owes nothing, like an
 * irrelevant event: it is only counted towards the next save (a fleet's scheduler decisions do
 * not each cost a write).
 */
describe('the hand-off worker saves its checkpoint after the events that owed a step', () => {
  it('saves at once after an agent in a delegation, every saveEvery events otherwise', async () => {
    const saves: bigint[] = [];
    const checkpoints: HandoffCheckpointStore = {
      load: async () => null,
      save: async (_name, position) => void saves.push(position),
    };
    const inDelegation = new Set(['parent']);
    const settle = jest.fn(async (agentId: string) => inDelegation.has(agentId));
    const events = [decision('a', 1), decision('b', 2), decision('parent', 3), decision('c', 4), decision('d', 5)];
    const worker = new HandoffWorker(
      storeOf(events),
      { settle } as unknown as DelegationHandoff,
      checkpoints,
      { error: () => undefined },
      { saveEvery: 2 },
    );
    await worker.start();
    await worker.reached(5n);
    await worker.stop();
    expect(settle.mock.calls.map(([agentId]) => agentId)).toEqual(['a', 'b', 'parent', 'c', 'd']);
    // 2: the second event since the start; 3: the parent's; 5: two more since.
    expect(saves).toEqual([2n, 3n, 5n]);
  });

  it('does not settle an agent the hint knows to be in no delegation as of the event (no IO)', async () => {
    const saves: bigint[] = [];
    const checkpoints: HandoffCheckpointStore = {
      load: async () => null,
      save: async (_name, position) => void saves.push(position),
    };
    const settle = jest.fn(async () => true);
    const known = jest.fn((agentId: string) => agentId !== 'parent');
    const events = [decision('a', 1), decision('parent', 2), decision('b', 3)].map((e, i) => ({
      ...e,
      revision: BigInt(10 + i),
    }));
    const worker = new HandoffWorker(
      storeOf(events),
      { settle } as unknown as DelegationHandoff,
      checkpoints,
      { error: () => undefined },
      { saveEvery: 200, inNoDelegation: known },
    );
    await worker.start();
    await worker.reached(3n);
    await worker.stop();
    expect(known.mock.calls).toEqual([
      ['a', 10n],
      ['parent', 11n],
      ['b', 12n],
    ]);
    expect(settle.mock.calls).toEqual([['parent']]);
    expect(saves).toEqual([2n]);
  });
});
