import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, StoredEvent, Subscription } from '@app/event-store';
import type { Tracing } from '@app/core';
import type { BatchApplier } from './batch-applier';
import { Batches } from './batches';
import { type Checkpoint, CheckpointMoved } from './checkpoint';
import { ProjectionStalledError } from './poison';
import { ResumePoints } from './resume-points';

export interface ProjectionLoopOptions {
  batchSize: number;
  onError?: (error: unknown) => void;
  /** Delay before the first retry of a stalled position, doubled per attempt up to `max`. */
  stallRetryMs: { first: number; max: number };
  /** Tracing on: each applied event that carries a trace context gets a span in its trace. */
  tracing?: Tracing;
  /** The projection's name (its spans': `project <name>`). */
  name?: string;
  /** Asked before each batch: false stops the loop without applying it (the projector lease lapsed, ADR 0035). */
  mayApply?: () => boolean;
}

/**
 * The live side of a projection runner: subscribes to the store after the checkpoint, applies
 * what arrives in batches and, when a batch fails, re-reads the checkpoint and subscribes again
 * after a pause: at once when another runner moved it, a doubling delay for a poison event
 * (the stall retry), a short backoff for anything else (an outage). stop() cuts a pause short.
 */
export class ProjectionLoop<S> {
  private subscription?: Subscription;
  private loop?: Promise<void>;
  private stopping?: AbortController;
  private readonly resumes: ResumePoints;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoint: Checkpoint,
    private readonly applier: BatchApplier<S>,
    private readonly options: ProjectionLoopOptions,
  ) {
    this.resumes = new ResumePoints(checkpoint, (error) => options.onError?.(error));
  }

  applyOnlyWhile(check: (() => boolean) | undefined): void {
    this.options.mayApply = check;
  }

  get running(): boolean {
    return this.stopping !== undefined && !this.stopping.signal.aborted;
  }

  /** Starts consuming in the background from the stored checkpoint. */
  async start(): Promise<void> {
    if (this.running) return;
    const stopping = new AbortController();
    this.stopping = stopping;
    // The parked agents before the checkpoint: a wait woken by the move reads both.
    await this.applier.open();
    this.checkpoint.moveTo(await this.checkpoint.read());
    this.loop = this.run(stopping.signal);
  }

  async stop(): Promise<void> {
    this.stopping?.abort();
    await this.subscription?.stop();
    await this.loop;
    this.loop = undefined;
    await this.resumes.settle();
  }

  private async run(stopped: AbortSignal): Promise<void> {
    const { batchSize } = this.options;
    let failures = 0;
    while (!stopped.aborted) {
      // After the last event applied, or after the server checkpoint saved beyond it (ADR 0043).
      const after = await this.checkpoint.resumeAfter().catch(() => this.checkpoint.position);
      if (stopped.aborted) break;
      this.resumes.reset();
      let handedOut = after;
      this.subscription = this.store.subscribeToAll({
        after_position: after < 0n ? undefined : after,
        batch_size: batchSize,
        on_checkpoint: (position) => this.resumes.offer(position, handedOut),
      });
      const events = this.subscription[Symbol.asyncIterator]();
      // The last event the subscription handed out: a checkpoint told now covers it.
      const tracked: AsyncIterator<StoredEvent> = {
        next: async () => {
          const result = await events.next();
          if (!result.done) handedOut = result.value.position;
          return result;
        },
      };
      try {
        const batches = new Batches(tracked, batchSize);
        for (let batch = await batches.next(); batch && !stopped.aborted; batch = await batches.next()) {
          if (this.options.mayApply && !this.options.mayApply()) {
            this.stopping?.abort();
            await this.subscription.stop().catch(() => undefined);
            break;
          }
          await this.apply(batch);
          failures = 0;
        }
      } catch (error) {
        if (stopped.aborted) break;
        await this.subscription.stop().catch(() => undefined);
        // The parked agents first: whoever waits on the checkpoint's move reads them (read-your-writes).
        await this.applier.refreshParked().catch(() => undefined);
        this.checkpoint.moveTo(await this.checkpoint.read().catch(() => this.checkpoint.position));
        await this.pause(this.delayAfter(error, failures), stopped);
        if (!(error instanceof CheckpointMoved) && !(error instanceof ProjectionStalledError)) failures++;
      }
    }
  }

  /** One batch into the read models; with tracing on, in one span per traced event (docs/decisions/0033). */
  private apply(batch: StoredEvent[]): Promise<void> {
    const { tracing, name = 'read_models' } = this.options;
    if (!tracing?.enabled) return this.applier.apply(batch);
    const traced = batch.map((event) => ({
      metadata: event.metadata,
      attributes: {
        'agent_runtime.projection': name,
        'agent_runtime.event.type': event.type,
        'agent_runtime.event.stream': event.stream,
        'agent_runtime.event.position': event.position.toString(),
        'agent_runtime.batch.size': batch.length,
      },
    }));
    return tracing.forEvents(`project ${name}`, traced, () => this.applier.apply(batch));
  }

  /** How long to wait before subscribing again after `error` (reported unless another runner merely moved on). */
  private delayAfter(error: unknown, failures: number): number {
    if (error instanceof CheckpointMoved) return 10;
    this.options.onError?.(error);
    if (error instanceof ProjectionStalledError) {
      const { first, max } = this.options.stallRetryMs;
      return Math.min(max, first * 2 ** Math.min(20, error.letter.attempts - 1));
    }
    return Math.min(5_000, 250 * 2 ** Math.min(5, failures));
  }

  /** A pause that stop() cuts short (a stalled runner may wait minutes between attempts). */
  private async pause(ms: number, stopped: AbortSignal): Promise<void> {
    await sleep(ms, undefined, { signal: stopped }).catch(() => undefined);
  }
}
