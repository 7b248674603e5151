import type { AgentEvent, AgentState } from '@app/domain';
import { cmd, history } from '@app/domain/testing';
import type { EventStore, StoredEvent } from '@app/event-store';
import { agentStateDecider, type Clock, type SnapshotStore } from '@app/core';
import { AgentCommandService } from '../agents/agent-command.service';
import { AgentRepository } from '../agents/agent-repository';
import { DelegationHandoff } from './delegation-handoff';

/** One stream in memory (only reads: the repository folds and caches it). */
function storeWith(events: readonly AgentEvent[]): EventStore {
  const stored = events.map(
    (event, i) =>
      ({
        id: `e${i}`,
        stream: 'agent-a',
        type: event.type,
        data: event.data,
        metadata: {},
        revision: BigInt(i),
        position: BigInt(i),
        recorded_at: '2026-01-01T00:00:00.000Z',
      }) as StoredEvent,
  );
  return {
    readStream: async (_stream: string, options: { from_revision?: bigint } = {}) =>
      stored.slice(Number(options.from_revision ?? 0n)),
  } as unknown as EventStore;
}

const noSnapshots: SnapshotStore = { load: async () => null, save: async () => undefined };
const clock: Clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };

describe('DelegationHandoff.inNoDelegation: known without IO only from a cached state that includes the event', () => {
  it('answers from the cache at or past the revision, never from an older state or an uncached agent', async () => {
    const events = history([], cmd.register('a'), cmd.create('w-1'));
    const repository = new AgentRepository<AgentState, AgentEvent>(storeWith(events), noSnapshots, agentStateDecider);
    const agents = new AgentCommandService(repository, clock);
    const handoff = new DelegationHandoff(agents, {} as EventStore);
    expect(handoff.inNoDelegation('a', 0n)).toBe(false);
    await agents.load('a');
    expect(agents.peekAt('a', 1n)?.agent_id).toBe('a');
    expect(handoff.inNoDelegation('a', 0n)).toBe(true);
    expect(handoff.inNoDelegation('a', 1n)).toBe(true);
    // An event the cached state does not include yet: not known.
    expect(agents.peekAt('a', 2n)).toBeNull();
    expect(handoff.inNoDelegation('a', 2n)).toBe(false);
  });
});
