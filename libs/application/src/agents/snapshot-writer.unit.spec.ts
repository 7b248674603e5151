import type { AgentSnapshot, SnapshotStore } from '@app/core';
import { type OfferedSnapshot, SnapshotWriter, type SnapshotWriterOptions } from './snapshot-writer';

type State = { note: string };

/** The snapshots whose idempotency window was written out (`commands()` called), as `agent@revision`. */
const writtenOut: string[] = [];

const snapshot = (agentId: string, revision: number, stateVersion = 1): OfferedSnapshot<State> => ({
  agent_id: agentId,
  revision: BigInt(revision),
  state_version: stateVersion,
  state: { note: `${agentId}@${revision}` },
  commands: () => {
    writtenOut.push(`${agentId}@${revision}`);
    return [[`command-of-${agentId}`, '0', String(revision)]];
  },
});

/** A store whose saves wait until the test releases them; it records what was saved and the most saves at once. */
function gatedStore() {
  const saved: string[] = [];
  /** The idempotency window of each snapshot saved, as the store received it. */
  const commands: AgentSnapshot<State>['commands'][] = [];
  const pending: Array<() => void> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let failNext: Error | null = null;
  const store: SnapshotStore = {
    load: async () => null,
    save: async <S>(s: AgentSnapshot<S>) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise<void>((resolve) => pending.push(resolve));
      inFlight--;
      if (failNext) {
        const error = failNext;
        failNext = null;
        throw error;
      }
      saved.push(`${s.agent_id}@${s.revision}`);
      commands.push(s.commands);
    },
  };
  return {
    store,
    saved,
    commands,
    mostInFlight: () => mostInFlight,
    failNextWith: (error: Error) => (failNext = error),
    /** Lets the save in flight finish, then gives the writer the turn to send the next one. */
    async releaseOne() {
      for (let i = 0; i < 5 && pending.length === 0; i++) await tick();
      pending.shift()?.();
      await tick();
    },
    /** Releases every save until the writer has nothing left. */
    async releaseAll(writer: SnapshotWriter<State>) {
      let idle = false;
      const done = writer.idle().then(() => (idle = true));
      while (!idle) {
        pending.shift()?.();
        await tick();
      }
      await done;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A writer on the gated store without pacing (the pacing has its own spec). */
const unpaced = (store: ReturnType<typeof gatedStore>, options: SnapshotWriterOptions = {}) =>
  new SnapshotWriter<State>(store.store, { minIntervalMs: 0, ...options });

/** A writer whose first save (a@200) is in flight. */
async function withOneInFlight(store: ReturnType<typeof gatedStore>): Promise<SnapshotWriter<State>> {
  const writer = unpaced(store);
  writer.offer(snapshot('a', 200));
  await tick();
  return writer;
}

describe('the snapshot writer', () => {
  it('given a burst of agents coming due together, when they are offered, then they are saved one at a time, each once', async () => {
    const store = gatedStore();
    const writer = unpaced(store);
    const agents = Array.from({ length: 20 }, (_, i) => `agent-${i}`);

    for (const agent of agents) writer.offer(snapshot(agent, 200));
    await store.releaseAll(writer);

    expect(store.mostInFlight()).toBe(1);
    expect(store.saved).toEqual(agents.map((agent) => `${agent}@200`));
    expect(writer.stats).toEqual({ written: 20, superseded: 0, skipped: 0, failed: 0 });
  });

  it('given an agent whose snapshot waits, when a newer one of it comes due, then only the newer one is saved, in the older one’s place', async () => {
    const store = gatedStore();
    const writer = await withOneInFlight(store);
    writer.offer(snapshot('b', 200));
    writer.offer(snapshot('c', 200));
    writer.offer(snapshot('b', 400));

    await store.releaseAll(writer);

    expect(store.saved).toEqual(['a@200', 'b@400', 'c@200']);
    expect(writer.stats.superseded).toBe(1);
  });

  it('given snapshots waiting, when they are saved, then each one’s window is written out as it is saved, and a superseded one’s never', async () => {
    writtenOut.length = 0;
    const store = gatedStore();
    const writer = await withOneInFlight(store);
    writer.offer(snapshot('b', 200));
    writer.offer(snapshot('b', 400));

    expect(writtenOut).toEqual(['a@200']);
    await store.releaseOne();
    expect(writtenOut).toEqual(['a@200', 'b@400']);
    await store.releaseAll(writer);

    expect(store.saved).toEqual(['a@200', 'b@400']);
    expect(store.commands).toEqual([[['command-of-a', '0', '200']], [['command-of-b', '0', '400']]]);
  });

  it('given a newer snapshot waiting, when an older one of the same agent is offered, then it is ignored', async () => {
    const store = gatedStore();
    const writer = unpaced(store);
    writer.offer(snapshot('a', 400));
    writer.offer(snapshot('a', 200));

    await store.releaseAll(writer);

    expect(store.saved).toEqual(['a@400']);
  });

  it('given a snapshot of one state version waiting, when one of another state version is offered, then it replaces the waiting one (the store keeps one per agent)', async () => {
    const store = gatedStore();
    const writer = unpaced(store);
    writer.offer(snapshot('a', 400, 1));
    writer.offer(snapshot('a', 200, 2));

    await store.releaseAll(writer);

    expect(store.saved).toEqual(['a@200']);
  });

  it('given a save that fails, when it is reported, then the next snapshots are still saved', async () => {
    const store = gatedStore();
    const errors: unknown[] = [];
    const writer = unpaced(store, { onError: (error) => errors.push(error) });
    store.failNextWith(new Error('pool closed'));
    writer.offer(snapshot('a', 200));
    writer.offer(snapshot('b', 200));

    await store.releaseOne();
    await store.releaseAll(writer);

    expect(errors).toEqual([new Error('pool closed')]);
    expect(store.saved).toEqual(['b@200']);
    expect(writer.stats).toEqual({ written: 1, superseded: 0, skipped: 0, failed: 1 });
  });

  it('given a full queue, when another agent comes due, then its snapshot is skipped and the waiting ones still go out', async () => {
    const store = gatedStore();
    const writer = unpaced(store, { maxWaiting: 2 });
    writer.offer(snapshot('a', 200));
    writer.offer(snapshot('b', 200));
    writer.offer(snapshot('c', 200));
    writer.offer(snapshot('b', 400));

    await store.releaseAll(writer);

    expect(store.saved).toEqual(['a@200', 'b@400']);
    expect(writer.stats.skipped).toBe(1);
  });

  it('given an outcome counter, when snapshots are written, replaced, skipped and failed, then each outcome is counted once', async () => {
    const store = gatedStore();
    const outcomes: string[] = [];
    const writer = unpaced(store, { maxWaiting: 2, onOutcome: (outcome) => outcomes.push(outcome) });
    store.failNextWith(new Error('pool closed'));
    writer.offer(snapshot('a', 200));
    writer.offer(snapshot('b', 200));
    writer.offer(snapshot('c', 200));
    writer.offer(snapshot('b', 400));

    await store.releaseAll(writer);

    expect(outcomes.sort()).toEqual(['failed', 'skipped', 'superseded', 'written']);
    expect(store.saved).toEqual(['b@400']);
  });

  it('given nothing waiting, when a snapshot is offered after the last drain, then it is saved too', async () => {
    const store = gatedStore();
    const writer = unpaced(store);
    writer.offer(snapshot('a', 200));
    await store.releaseAll(writer);

    writer.offer(snapshot('a', 400));
    await store.releaseAll(writer);

    expect(store.saved).toEqual(['a@200', 'a@400']);
  });
});

describe('the snapshot writer, paced and closed', () => {
  it('given a burst, when it is written, then each save starts at least minIntervalMs after the one before', async () => {
    let clock = 0;
    const slept: number[] = [];
    const started: number[] = [];
    const store: SnapshotStore = {
      load: async () => null,
      save: async () => {
        started.push(clock);
        clock += 4; // each save takes 4 ms
      },
    };
    const writer = new SnapshotWriter<State>(store, {
      minIntervalMs: 20,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });

    for (const agent of ['a', 'b', 'c']) writer.offer(snapshot(agent, 200));
    await writer.idle();

    expect(started).toEqual([0, 20, 40]);
    expect(slept).toEqual([16, 16]);
  });

  it('given snapshots waiting and one in flight, when the writer is closed, then the waiting ones are dropped, the one in flight ends, and later offers are ignored', async () => {
    const store = gatedStore();
    const writer = await withOneInFlight(store);
    writer.offer(snapshot('b', 200));

    const closed = writer.close();
    writer.offer(snapshot('c', 200));
    await store.releaseOne();
    await closed;

    expect(store.saved).toEqual(['a@200']);
    expect(store.mostInFlight()).toBe(1);
  });
});
