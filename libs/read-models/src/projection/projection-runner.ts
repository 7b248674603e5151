import type { Pool } from 'pg';
import type { EventStore } from '@app/event-store';
import type { AgentDecider, DomainEvent, SnapshotStore, Tracing } from '@app/core';
import { AgentStates } from './agent-states';
import { type ApplyHook, BatchApplier } from './batch-applier';
import { Checkpoint } from './checkpoint';
import { DeadLetters } from './dead-letters';
import { type DeadLetterAction, type DeadLetterResolution, DeadLetterResolver } from './dead-letter-resolver';
import { type ParkedAgent, ParkedAgents } from './parked-agents';
import { type DeadLetter, isKnownAgentEventType } from './poison';
import { ProjectionLoop } from './projection-loop';
import type { Projector } from './projector';
import { Rebuild, type RebuildProgress } from './rebuild';
import type { ProjectionCoverage } from '../consistency/coverage';

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
  /** Tracing on: the live loop's projection spans, in the trace of each event's stored context. */
  tracing?: Tracing;
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
  private readonly progressListeners = new Set<() => void>();

  constructor(
    pool: Pool,
    private readonly store: EventStore,
    decider: AgentDecider<S, DomainEvent>,
    projectors: Projector<S>[],
    options: ProjectionRunnerOptions = {},
  ) {
    this.name = options.name ?? 'read_models';
    const batchSize = options.batchSize ?? 500;
    this.checkpointRow = new Checkpoint(pool, this.name, { notify: true });
    this.checkpointRow.onMove(() => this.progressed());
    const deadLetters = new DeadLetters(pool, this.name);
    this.parked = new ParkedAgents(pool, this.name);
    // The live applier, and the shadow's of a rebuild (its pool writes the shadow tables first).
    const applierOf = (db: Pool, checkpoint: Checkpoint, parked: ParkedAgents, letters: DeadLetters) =>
      new BatchApplier<S>({
        pool: db,
        checkpoint,
        states: new AgentStates(store, decider, undefined, options.snapshots),
        deadLetters: letters,
        parked,
        projectors,
        isKnownType: options.isKnownEventType ?? isKnownAgentEventType,
        onParked: options.onParked,
      });
    this.applier = applierOf(pool, this.checkpointRow, this.parked, deadLetters);
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
      tracing: options.tracing,
      name: this.name,
    });
    const shadowApplier = (db: Pool, checkpoint: Checkpoint) => {
      const applier = applierOf(db, checkpoint, new ParkedAgents(db, this.name), new DeadLetters(db, this.name));
      applier.hook = this.applier.hook;
      return applier;
    };
    this.rebuilder = new Rebuild(pool, store, this.name, shadowApplier, this.applier.tableNames(), batchSize);
  }

  /** Starts consuming in the background from the stored checkpoint. */
  async start(): Promise<void> {
    await this.loop.start();
    this.progressed();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.progressed();
  }

  /** True while the live loop runs (a standby projector's runner is stopped: its coverage is not current). */
  get active(): boolean {
    return this.loop.running;
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

  /** What the read models of this runner include, as this process knows it (read-your-writes). */
  coverage(): ProjectionCoverage {
    const parked = new Map(this.parked.all.map((agent) => [agent.agent_id, agent.letter_position] as const));
    return { projection: this.name, checkpoint: this.checkpointRow.position, parked };
  }

  /** Called whenever `coverage()` may have changed (the checkpoint moved, an agent was resumed); returns the unsubscribe. */
  onProgress(listener: () => void): () => void {
    this.progressListeners.add(listener);
    return () => void this.progressListeners.delete(listener);
  }

  private progressed(): void {
    for (const listener of [...this.progressListeners]) listener();
  }

  /**
   * An operator's skip or retry of the open dead letter at `position` (see DeadLetterResolver):
   * works whether this runner runs or not, and alongside runners in other processes.
   */
  async resolve(
    position: bigint,
    action: DeadLetterAction,
    actor: string,
    reason: string | null = null,
  ): Promise<DeadLetterResolution> {
    const resolution = await this.resolver.resolve(position, action, actor, reason);
    this.progressed();
    return resolution;
  }

  /**
   * Applies batches only while `check` says so (the projector lease, ADR 0035): a false answer
   * stops the live loop before the batch; whoever holds the lease starts it again.
   */
  applyOnlyWhile(check: (() => boolean) | undefined): void {
    this.loop.applyOnlyWhile(
      check &&
        (() => {
          const may = check();
          // The loop stops itself: whoever follows this runner's coverage is told (it is no longer current).
          if (!may) queueMicrotask(() => this.progressed());
          return may;
        }),
    );
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
    if (!this.active) return this.followStored(position, timeoutMs);
    return this.checkpointRow.waitFor(position, timeoutMs, () => {
      const stall = this.applier.stalled;
      return stall ? `; ${stall.stream} parked at ${stall.position}: ${stall.error}` : '';
    });
  }

  /**
   * A runner on standby (another replica holds the projector lease, ADR 0035): the stored
   * checkpoint is read until it reaches `position` (or this runner starts and waits as usual).
   */
  private async followStored(position: bigint, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (this.active) return this.checkpointRow.waitFor(position, Math.max(0, until - Date.now()));
      const stored = await this.checkpointRow.read();
      if (stored >= position) return;
      if (Date.now() >= until)
        throw new Error(
          `projection ${this.name} (on standby here) did not reach ${position} in ${timeoutMs} ms (at ${stored})`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Replays from position 0 into shadow tables (the parked agents included) while the live ones
   * keep serving (and this runner keeps applying), then swaps them in atomically; returns the
   * event count. A poison event parks its agent in the shadow as in the live loop; a letter an
   * operator skipped is skipped again.
   */
  async rebuild(onProgress?: RebuildProgress, options: { upTo?: bigint } = {}): Promise<number> {
    return this.rebuilder.run(onProgress, options, async (swap) => {
      // The live loop pauses for the swap alone, then resumes from the swapped checkpoint.
      const wasRunning = this.loop.running;
      await this.stop();
      try {
        const position = await swap();
        this.checkpointRow.moveTo(position);
        this.parked.invalidate();
        await this.applier.forget();
        this.progressed();
        return position;
      } finally {
        if (wasRunning) await this.start();
      }
    });
  }
}
