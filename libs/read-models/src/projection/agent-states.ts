import type { EventStore, StoredEvent } from '@app/event-store';
import { type AgentDecider, type DomainEvent, type SnapshotStore, agentStream, toDomainEvent } from '@app/core';

interface Entry<S> {
  state: S;
  revision: bigint;
}

/**
 * Agent states as the projection runner folds them, event by event, in global order. A miss
 * (cold start from a checkpoint, or an evicted agent) folds the stream up to the revision
 * just before the event, from the agent's snapshot when there is one at or before that
 * revision (the command side's cache of the same fold). Changes are staged per batch and kept
 * only when the batch commits.
 */
export class AgentStates<S> {
  private readonly committed = new Map<string, Entry<S>>();
  private staged = new Map<string, Entry<S>>();

  constructor(
    private readonly store: EventStore,
    private readonly decider: AgentDecider<S, DomainEvent>,
    private readonly capacity = 10_000,
    private readonly snapshots?: Pick<SnapshotStore, 'load'>,
  ) {}

  /** State of `agentId` just before `revision`. */
  async before(agentId: string, revision: bigint): Promise<S> {
    const entry = this.staged.get(agentId) ?? this.committed.get(agentId);
    if (entry && entry.revision === revision - 1n) return entry.state;
    if (revision === 0n) return this.decider.initialState(agentId);
    const base = await this.snapshotBefore(agentId, revision);
    const from = base === null ? 0n : base.revision + 1n;
    const events = await this.store.readStream(agentStream(agentId), { from_revision: from, max_count: Number(revision - from) });
    return events.reduce((state, event) => this.decider.evolve(state, toDomainEvent(event)), base?.state ?? this.decider.initialState(agentId));
  }

  /** The agent's snapshot when it is older than `revision` (a newer one is past the event), else null; a cache, so a failed read is a miss. */
  private async snapshotBefore(agentId: string, revision: bigint): Promise<Entry<S> | null> {
    const snapshot = await this.snapshots?.load<unknown>(agentId, this.decider.stateVersion).catch(() => null);
    if (!snapshot || snapshot.revision >= revision) return null;
    return { state: this.decider.revive(snapshot.state), revision: snapshot.revision };
  }

  /** The state after `event` (pure: throws for an event the fold cannot read; nothing is staged then). */
  next(state: S, event: StoredEvent): S {
    return this.decider.evolve(state, toDomainEvent(event));
  }

  /** Keeps `state` as the agent's state at `revision`, committed with the batch. */
  stage(agentId: string, state: S, revision: bigint): void {
    this.staged.set(agentId, { state, revision });
  }

  commit(): void {
    for (const [agentId, entry] of this.staged) {
      this.committed.delete(agentId);
      this.committed.set(agentId, entry);
    }
    this.staged = new Map();
    while (this.committed.size > this.capacity) this.committed.delete(this.committed.keys().next().value as string);
  }

  discard(): void {
    this.staged = new Map();
  }

  clear(): void {
    this.committed.clear();
    this.staged = new Map();
  }
}
