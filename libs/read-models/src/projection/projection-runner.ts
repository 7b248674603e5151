import type { Pool } from 'pg';
import type { EventStore } from '@app/event-store';
import type { AgentDecider, DomainEvent, SnapshotStore } from '@app/core';
import { AgentStates } from './agent-states';
import { type ApplyHook, BatchApplier } from './batch-applier';
import { Checkpoint } from './checkpoint';
import { DeadLetters } from './dead-letters';
import { type DeadLetterAction, type DeadLetterResolution, DeadLetterResolver } from './dead-letter-resolver';
import { type ParkedAgent, ParkedAgents } from './parked-agents';
import { type DeadLetter, isKnownAgentEventType } from './poison';
import { ProjectionLoop } from './projection-loop';
import type { Projector } from './projector';
import { Rebuild } from './rebuild';

export type { ApplyHook } from './batch-applier';

export interface ProjectionRunnerOptions {
  /** Checkpoint name; one runner applies all the read models of one group together. */
  name?: string;
  batchSize?: number;
  onError?: (error: unknown) => void;
  onApplied?: ApplyHook;
  /** Event types the fold knows (default: the agent domain's); any other type is a poison event. */
  isKnownEventType?: (type: string) => boolean;
  /** Told of every agent a poison event parked (ADR 0015). */
  onParked?: (letter: DeadLetter) => void;
  /**
   * Delay before the next attempt after a batch that stopped at a ProjectionStalledError, doubled
   * per attempt up to `max` (default 1 s .. 5 min). Since ADR 0015 a poison event parks its agent
   * instead of stopping the runner, so only a caller's own hook can still raise one.
   */
  stallRetryMs?: { first: number; max: number };
  /** Agent snapshots: a cold agent state is folded from its snapshot instead of from revision 0. */
  snapshots?: Pick<SnapshotStore, 'load'>;
}

/**
 * Consumes the store in global order and writes read models. Rows and checkpoint commit in
 * one transaction; the checkpoint row is locked and compared first, so two runners on one
 * projection never apply an event twice (one applies, the other resynchronises).
 *
 * A poison event (unknown type, data the fold or a projector cannot read, rows the database
 * refuses) parks its agent only (ADR 0015): it is recorded in projection_dead_letters, the agent
 * in projection_parked_agents, and the agent's later events are held (never silently skipped)
 * until an operator retries or skips the letter (`resolve`); every other agent goes on.
 *
 * A facade: the Checkpoint (row, position, waiters), the BatchApplier (one batch into rows and
 * checkpoint, dead letters), the live ProjectionLoop and the Rebuild do the work.
 */
export class ProjectionRunner<S> {
  readonly name: string;
  private readonly checkpointRow: Checkpoint;
  private readonly applier: BatchApplier<S>;
  private readonly loop: ProjectionLoop<S>;
  private readonly rebuilder: Rebuild<S>;
  private readonly parked: ParkedAgents;
  private readonly resolver: DeadLetterResolver<S>;

  constructor(
    pool: Pool,
    private readonly store: EventStore,
    decider: AgentDecider<S, DomainEvent>,
    projectors: Projector<S>[],
    options: ProjectionRunnerOptions = {},
  ) {
    this.name = options.name ?? 'read_models';
    const batchSize = options.batchSize ?? 500;
    this.checkpointRow = new Checkpoint(pool, this.name);
    const deadLetters = new DeadLetters(pool, this.name);
    this.parked = new ParkedAgents(pool, this.name);
    this.applier = new BatchApplier<S>({
      pool,
      checkpoint: this.checkpointRow,
      states: new AgentStates(store, decider, undefined, options.snapshots),
      deadLetters,
      parked: this.parked,
      projectors,
      isKnownType: options.isKnownEventType ?? isKnownAgentEventType,
      onParked: options.onParked,
    });
    this.resolver = new DeadLetterResolver(pool, store, this.name, {
      applier: this.applier,
      states: new AgentStates(store, decider, 100, options.snapshots),
      deadLetters,
      parked: this.parked,
    });
    this.applier.hook = options.onApplied;
    this.loop = new ProjectionLoop(store, this.checkpointRow, this.applier, {
      batchSize,
      onError: options.onError,
      stallRetryMs: options.stallRetryMs ?? { first: 1_000, max: 300_000 },
    });
    this.rebuilder = new Rebuild(pool, store, this.checkpointRow, this.applier, batchSize);
  }

  /** Starts consuming in the background from the stored checkpoint. */
  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** The position of the last event applied (-1 when none). */
  get checkpoint(): bigint {
    return this.checkpointRow.position;
  }

  /** The letter that last parked an agent in this process, while that agent stays parked (null otherwise). */
  get stalled(): DeadLetter | null {
    return this.applier.stalled;
  }

  /** The agents parked by a poison event, as this process last read them. */
  get parkedAgents(): ParkedAgent[] {
    return this.parked.all;
  }

  /**
   * An operator's skip or retry of the open dead letter at `position` (see DeadLetterResolver):
   * works whether this runner runs or not, and alongside runners in other processes.
   */
  resolve(
    position: bigint,
    action: DeadLetterAction,
    actor: string,
    reason: string | null = null,
  ): Promise<DeadLetterResolution> {
    return this.resolver.resolve(position, action, actor, reason);
  }

  /** Installs (or removes) the hook run inside every batch's transaction (see ApplyHook). */
  setApplyHook(hook: ApplyHook | undefined): void {
    this.applier.hook = hook;
  }

  /** Events committed but not applied yet, as a position distance (null when unknown). */
  async lag(): Promise<{ checkpoint: bigint; head: bigint | null; behind: bigint | null }> {
    const head = await this.store.headPosition();
    const checkpoint = this.checkpointRow.position;
    return { checkpoint, head, behind: head === null ? null : head > checkpoint ? head - checkpoint : 0n };
  }

  /** Resolves once every event up to `position` is applied (read-your-writes for tests). */
  waitFor(position: bigint, timeoutMs = 10_000): Promise<void> {
    return this.checkpointRow.waitFor(position, timeoutMs, () => {
      const stall = this.applier.stalled;
      return stall ? `; ${stall.stream} parked at ${stall.position}: ${stall.error}` : '';
    });
  }

  /**
   * Drops every read model of this runner (and its parked agents) and replays from position 0;
   * returns the event count. A poison event parks its agent again; a letter an operator skipped
   * is skipped again.
   */
  async rebuild(onProgress?: (applied: number) => void, options: { upTo?: bigint } = {}): Promise<number> {
    const wasRunning = this.loop.running;
    await this.stop();
    try {
      return await this.rebuilder.run(onProgress, options);
    } finally {
      if (wasRunning) await this.start();
    }
  }
}
