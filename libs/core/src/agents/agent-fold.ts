import type { EventStore, StoredEvent } from '@app/event-store';
import { toDomainEvent } from '../events/upcasters';
import type { AgentDecider, DomainEvent } from './agent-decider';
import { agentStream } from './agent-stream';
import type { RecentCommands, SnapshotStore } from './snapshot-store';

/** An agent's state and the stream revision of the last event folded into it (null: none). */
export interface FoldedState<S> {
  state: S;
  revision: bigint | null;
}

export interface FoldFrom<S> {
  /** Start from this state (a cache hit) instead of a snapshot. */
  base?: FoldedState<S>;
  /** Fold only the events before this revision: the state just before that event. */
  before?: bigint;
}

export interface FoldResult<S> extends FoldedState<S> {
  /** The snapshot the fold started from (its recent commands seed the idempotency window), or null. */
  snapshot: { revision: bigint; commands: RecentCommands } | null;
  /** The events read after the start and folded in, in stream order. */
  tail: StoredEvent[];
}

/**
 * THE fold of an agent stream, for the command side (AgentRepository) and the projector
 * (AgentStates) alike: start from a given state, else from the agent's newest snapshot (one
 * taken before `before`), else from the initial state; read the tail of the stream after it;
 * evolve each event, upcast to the current schema of its type.
 *
 * A snapshot is a cache: one of an older state shape is not even asked for. Whether a failed
 * snapshot read is a miss is the caller's choice (it passes a store that says so).
 */
export class AgentFold<S, E extends DomainEvent = DomainEvent> {
  constructor(
    private readonly store: EventStore,
    private readonly decider: AgentDecider<S, E>,
    private readonly snapshots?: Pick<SnapshotStore, 'load'>,
  ) {}

  async fold(agentId: string, from: FoldFrom<S> = {}): Promise<FoldResult<S>> {
    const snapshot = from.base ? null : await this.snapshot(agentId, from.before);
    const base: FoldedState<S> = from.base ?? snapshot ?? { state: this.decider.initialState(agentId), revision: null };
    const start = base.revision === null ? 0n : base.revision + 1n;
    const range =
      from.before === undefined
        ? { from_revision: start }
        : { from_revision: start, max_count: Number(from.before - start) };
    const tail = await this.store.readStream(agentStream(agentId), range);
    const state = tail.reduce((folded, event) => this.next(folded, event), base.state);
    const revision = tail.length === 0 ? base.revision : tail[tail.length - 1].revision;
    return {
      state,
      revision,
      snapshot: snapshot && { revision: snapshot.revision, commands: snapshot.commands },
      tail,
    };
  }

  /** The state after one stored event (pure: throws for an event the fold cannot read). */
  next(state: S, event: StoredEvent): S {
    return this.decider.evolve(state, toDomainEvent<E>(event));
  }

  /** The agent's snapshot, revived, when there is one older than `before` (a newer one is past the event). */
  private async snapshot(
    agentId: string,
    before?: bigint,
  ): Promise<(FoldedState<S> & { revision: bigint; commands: RecentCommands }) | null> {
    const snapshot = await this.snapshots?.load<unknown>(agentId, this.decider.stateVersion);
    if (!snapshot || (before !== undefined && snapshot.revision >= before)) return null;
    return { state: this.decider.revive(snapshot.state), revision: snapshot.revision, commands: snapshot.commands };
  }
}
