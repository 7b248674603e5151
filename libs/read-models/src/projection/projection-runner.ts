import type { Pool } from 'pg';
import type { EventStore } from '@app/event-store';
import type { AgentDecider, DomainEvent, SnapshotStore } from '@app/core';
import { AgentStates } from './agent-states';
import { type ApplyHook, BatchApplier } from './batch-applier';
import { Checkpoint } from './checkpoint';
import { DeadLetters } from './dead-letters';
import { type DeadLetter, isKnownAgentEventType } from './poison';
import { ProjectionLoop } from './projection-loop';
import type { Projector } from './projector';
import { Rebuild, type RebuildProgress } from './rebuild';

export type { ApplyHook } from './batch-applier';

export interface ProjectionRunnerOptions {
  /** Checkpoint name; one runner applies all the read models of one group together. */
  name?: string;
  batchSize?: number;
  onError?: (error: unknown) => void;
  onApplied?: ApplyHook;
  /** Event types the fold knows (default: the agent domain's); any other type is a poison event. */
  isKnownEventType?: (type: string) => boolean;
  /** Delay before the first retry of a stalled position, doubled per attempt up to `max` (default 1 s .. 5 min). */
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
 * refuses) is never skipped: the events before it are applied, it is recorded in
 * projection_dead_letters, and the runner stays "stalled at" its position, retrying with a
 * doubling delay (a fixed deployment or a rebuild moves on and resolves the letter).
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
    const applierOf = (client: Pool, checkpoint: Checkpoint) =>
      new BatchApplier<S>({
        pool: client,
        checkpoint,
        states: new AgentStates(store, decider, undefined, options.snapshots),
        deadLetters: new DeadLetters(client, this.name),
        projectors,
        isKnownType: options.isKnownEventType ?? isKnownAgentEventType,
      });
    this.applier = applierOf(pool, this.checkpointRow);
    this.applier.hook = options.onApplied;
    this.loop = new ProjectionLoop(store, this.checkpointRow, this.applier, {
      batchSize,
      onError: options.onError,
      stallRetryMs: options.stallRetryMs ?? { first: 1_000, max: 300_000 },
    });
    const shadowApplier = (client: Pool, checkpoint: Checkpoint) => {
      const applier = applierOf(client, checkpoint);
      applier.hook = this.applier.hook;
      return applier;
    };
    this.rebuilder = new Rebuild(pool, store, this.name, shadowApplier, this.applier.tableNames(), batchSize);
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

  /** The poison event this runner is stopped at, or null while it moves. */
  get stalled(): DeadLetter | null {
    return this.applier.stalled;
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
      return stall ? `; stalled at ${stall.position}: ${stall.error}` : '';
    });
  }

  /**
   * Replays from position 0 into shadow tables while the live ones keep serving (and this
   * runner keeps applying), then swaps them in atomically; returns the event count. A poison
   * event ends it with ProjectionStalledError (the models then stop just before it, and a
   * runner that was running resumes, stalled there).
   */
  async rebuild(onProgress?: RebuildProgress, options: { upTo?: bigint } = {}): Promise<number> {
    return this.rebuilder.run(onProgress, options, async (swap) => {
      // The live loop pauses for the swap alone, then resumes from the swapped checkpoint.
      const wasRunning = this.loop.running;
      await this.stop();
      try {
        const position = await swap();
        this.checkpointRow.moveTo(position);
        await this.applier.forget();
        return position;
      } finally {
        if (wasRunning) await this.start();
      }
    });
  }
}
