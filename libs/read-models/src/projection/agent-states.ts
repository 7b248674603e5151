import type { EventStore, StoredEvent } from '@app/event-store';
import { AgentFold, agentStream, type AgentDecider, type DomainEvent, type SnapshotStore } from '@app/core';

interface Entry<S> {
  state: S;
  revision: bigint;
}

/**
 * Agent states as the projection runner folds them, event by event, in global order. A miss
 * (cold start from a checkpoint, or an evicted agent) folds the stream up to the revision
 * just before the event with the one fold of libs/core, from the agent's snapshot when there
 * is one before that revision (the command side's cache of the same fold; a failed read is a
 * miss). Changes are staged per batch and kept only when the batch commits.
 */
export class AgentStates<S> {
  private readonly committed = new Map<string, Entry<S>>();
  private staged = new Map<string, Entry<S>>();
  private readonly agents: AgentFold<S>;

  constructor(
    private readonly store: EventStore,
    private readonly decider: AgentDecider<S, DomainEvent>,
    private readonly capacity = 10_000,
    snapshots?: Pick<SnapshotStore, 'load'>,
  ) {
    const cache = snapshots && {
      load: <T>(agentId: string, version: number) => snapshots.load<T>(agentId, version).catch(() => null),
    };
    this.agents = new AgentFold(store, decider, cache);
  }

  /**
   * State of `agentId` just before `revision`, leaving out the `skipped` revisions (dead letters
   * an operator skipped, ADR 0015: the read models' fold holds what their rows hold).
   */
  async before(agentId: string, revision: bigint, skipped?: ReadonlySet<bigint>): Promise<S> {
    const entry = this.staged.get(agentId) ?? this.committed.get(agentId);
    if (entry && entry.revision === revision - 1n) return entry.state;
    if (revision === 0n) return this.decider.initialState(agentId);
    if (skipped && [...skipped].some((skippedRevision) => skippedRevision < revision))
      return this.foldFromStart(agentId, revision, skipped);
    try {
      return (await this.agents.fold(agentId, { before: revision })).state;
    } catch {
      return this.foldFromStart(agentId, revision);
    }
  }

  /** The state after `event`, or `state` itself when the fold cannot read it. */
  nextOrSame(state: S, event: StoredEvent): S {
    try {
      return this.agents.next(state, event);
    } catch {
      return state;
    }
  }

  /**
   * The fold from revision 0 (no snapshot: the command side's includes skipped events), leaving
   * out the skipped revisions and any event the fold throws on. A failed read throws.
   */
  private async foldFromStart(agentId: string, revision: bigint, skipped: ReadonlySet<bigint> = new Set()): Promise<S> {
    const events = await this.store.readStream(agentStream(agentId), {
      from_revision: 0n,
      max_count: Number(revision),
    });
    return events.reduce(
      (state, event) => (skipped.has(event.revision) ? state : this.nextOrSame(state, event)),
      this.decider.initialState(agentId),
    );
  }

  /** The state after `event` (pure: throws for an event the fold cannot read; nothing is staged then). */
  next(state: S, event: StoredEvent): S {
    return this.agents.next(state, event);
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
