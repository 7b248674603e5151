import type { EventStore, ReadStreamOptions, StoredEvent } from '@app/event-store';
import type { AgentDecider } from './agent-decider';
import { AgentFold } from './agent-fold';
import type { AgentSnapshot, SnapshotStore } from './snapshot-store';

/** A state that names every event folded into it, so a fold shows where it started and what it read. */
type Trail = string[];

const decider: AgentDecider<Trail> = {
  initialState: () => ['initial'],
  evolve: (state, event) => [...state, event.type],
  stateVersion: 3,
  revive: (json) => [...(json as Trail), 'revived'],
};

const stream = (count: number): StoredEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `e${i}`,
    stream: 'agent-a',
    type: `E${i}`,
    data: {},
    metadata: {},
    revision: BigInt(i),
    position: BigInt(100 + i),
    recorded_at: '2026-01-01T00:00:00.000Z',
  }));

function storeOf(events: StoredEvent[]) {
  const reads: Array<{ stream: string; options?: ReadStreamOptions }> = [];
  const store = {
    readStream: async (name: string, options?: ReadStreamOptions) => {
      reads.push({ stream: name, options });
      const from = Number(options?.from_revision ?? 0n);
      return events.slice(from, options?.max_count === undefined ? undefined : from + options.max_count);
    },
  } as unknown as EventStore;
  return { store, reads };
}

const snapshotAt = (revision: bigint, state: Trail): AgentSnapshot<Trail> => ({
  agent_id: 'a',
  revision,
  state_version: 3,
  state,
  commands: [['c-1', '0', String(revision)]],
});
const snapshots = (load: () => Promise<AgentSnapshot<Trail> | null>): Pick<SnapshotStore, 'load'> => ({
  load: load as SnapshotStore['load'],
});

describe('the one fold of an agent stream', () => {
  it('folds the whole stream from the initial state when there is no snapshot', async () => {
    const { store, reads } = storeOf(stream(3));
    const folded = await new AgentFold(store, decider).fold('a');
    expect(folded).toMatchObject({ state: ['initial', 'E0', 'E1', 'E2'], revision: 2n, snapshot: null });
    expect(reads).toEqual([{ stream: 'agent-a', options: { from_revision: 0n } }]);
  });

  it('starts from the newest snapshot of the current state shape and reads only the tail after it', async () => {
    const { store, reads } = storeOf(stream(5));
    const load = jest.fn(async () => snapshotAt(2n, ['kept']));
    const folded = await new AgentFold(store, decider, snapshots(load)).fold('a');
    expect(load).toHaveBeenCalledWith('a', 3);
    expect(folded).toMatchObject({
      state: ['kept', 'revived', 'E3', 'E4'],
      revision: 4n,
      snapshot: { revision: 2n, commands: [['c-1', '0', '2']] },
    });
    expect(folded.tail.map((e) => e.revision)).toEqual([3n, 4n]);
    expect(reads).toEqual([{ stream: 'agent-a', options: { from_revision: 3n } }]);
  });

  it('starts from a given state without asking for a snapshot, and keeps it when nothing follows', async () => {
    const { store } = storeOf(stream(2));
    const load = jest.fn();
    const folded = await new AgentFold(store, decider, snapshots(load)).fold('a', {
      base: { state: ['cached'], revision: 1n },
    });
    expect(load).not.toHaveBeenCalled();
    expect(folded).toEqual({ state: ['cached'], revision: 1n, snapshot: null, tail: [] });
  });

  it('stops before a revision, from a snapshot only when it is older than that revision', async () => {
    const { store, reads } = storeOf(stream(6));
    const older = await new AgentFold(
      store,
      decider,
      snapshots(async () => snapshotAt(1n, ['s1'])),
    ).fold('a', { before: 4n });
    expect(older.state).toEqual(['s1', 'revived', 'E2', 'E3']);
    const past = await new AgentFold(
      store,
      decider,
      snapshots(async () => snapshotAt(4n, ['s4'])),
    ).fold('a', { before: 4n });
    expect(past).toMatchObject({ state: ['initial', 'E0', 'E1', 'E2', 'E3'], revision: 3n, snapshot: null });
    expect(reads.map((read) => read.options)).toEqual([
      { from_revision: 2n, max_count: 2 },
      { from_revision: 0n, max_count: 4 },
    ]);
  });

  it('upcasts each stored event before evolve sees it', async () => {
    const created = {
      ...stream(1)[0],
      type: 'WorkItemCreated',
      data: { work_item_id: 'w' },
      metadata: { schema_version: 0 },
    };
    const { store } = storeOf([created]);
    const seen: unknown[] = [];
    const recording: AgentDecider<Trail> = {
      ...decider,
      evolve: (state, event) => (seen.push(event.data), [...state, event.type]),
    };
    await new AgentFold(store, recording).fold('a');
    expect(seen).toEqual([{ work_item_id: 'w', plan_status: 'draft', todo_list: [], revision: 1 }]);
  });
});
