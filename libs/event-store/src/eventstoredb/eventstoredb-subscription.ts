import { START, type AllStreamSubscription, type Position } from '@eventstore/db-client';
import type { StoredEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { Wakeup, backoffMs, onAbort } from '../support/wakeup';
import type { EsdbClient, EsdbSubscription } from './eventstoredb-client';
import {
  fromLogEvent,
  isEsdbUnavailable,
  isInLog,
  logFilter,
  mapEsdbError,
  toEsdbPosition,
  type LogScope,
} from './eventstoredb-mapping';

export interface EventStoreDbSubscribeOptions extends SubscribeOptions {
  scope: LogScope;
  checkpointInterval: number;
}

/** A checkpoint the server sent, and how many items of the subscription came before it. */
interface PendingCheckpoint {
  position: Position;
  after: number;
}

/**
 * $all catch-up subscription, filtered by the server, that survives a lost connection. Its state
 * is where to resume: after the last delivered event, or after the server's last checkpoint once
 * every event before that checkpoint is delivered (so a resume does not make the server scan
 * again the filtered-out events it already passed).
 */
export class EventStoreDbSubscription implements Subscription {
  private stopped = false;
  private started = false;
  private current: EsdbSubscription | null = null;
  private readonly wakeup = new Wakeup();
  private detachAbort: () => void = () => undefined;
  /** Where a (re)subscription starts, exclusive: an event's position or a server checkpoint. */
  private resumeFrom: Position | undefined;
  /** The last delivered event's position: events at or before it are never delivered (again). */
  private after: bigint | undefined;
  private consumed = 0;
  private pending: PendingCheckpoint[] = [];

  constructor(
    private readonly client: EsdbClient,
    private readonly options: EventStoreDbSubscribeOptions,
    private readonly onStopped: (subscription: EventStoreDbSubscription) => void,
  ) {
    this.detachAbort = onAbort(options.signal, () => void this.stop());
    this.after = options.after_position;
    this.resumeFrom = options.after_position === undefined ? undefined : toEsdbPosition(options.after_position);
  }

  [Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    if (this.started) throw new Error('a subscription can be iterated once');
    this.started = true;
    return this.run();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wakeup.wake();
    this.detachAbort();
    const current = this.current;
    this.current = null;
    await current?.unsubscribe().catch(() => undefined);
    this.onStopped(this);
  }

  /** Where the subscription would resume now (exposed for specs and diagnostics). */
  get resumePosition(): Position | undefined {
    return this.resumeFrom;
  }

  private async *run(): AsyncGenerator<StoredEvent> {
    let failures = 0;
    try {
      while (!this.stopped) {
        const subscription = this.subscribe();
        this.current = subscription;
        try {
          for await (const resolved of subscription) {
            this.consumed += 1;
            if (this.stopped) return;
            const event = resolved.event;
            if (event && isInLog(event, this.options.scope)) {
              const stored = fromLogEvent(event, this.options.scope);
              if (this.after === undefined || stored.position > this.after) {
                this.after = stored.position;
                this.resumeFrom = toEsdbPosition(stored.position);
                failures = 0;
                yield stored;
              }
            }
            this.applyCheckpoints();
          }
        } catch (error) {
          if (this.stopped) return;
          if (!isEsdbUnavailable(error)) throw mapEsdbError(error);
        } finally {
          if (this.current === subscription) this.current = null;
          this.pending = [];
          await subscription.unsubscribe().catch(() => undefined);
        }
        // The server ended the stream or the connection dropped: resume where we are.
        if (!this.stopped) await this.wakeup.wait(backoffMs(failures++));
      }
    } finally {
      await this.stop();
    }
  }

  private subscribe(): EsdbSubscription {
    this.consumed = 0;
    this.pending = [];
    const checkpointReached = (subscription: AllStreamSubscription, position: Position): void => {
      // The client calls this in order with the events, but events before it may still wait in
      // its buffer: the checkpoint counts once those are delivered.
      this.pending.push({ position, after: this.consumed + subscription.readableLength });
      this.applyCheckpoints();
    };
    return this.client.subscribeToAll({
      fromPosition: this.resumeFrom ?? START,
      filter: logFilter(this.options.scope, { checkpointInterval: this.options.checkpointInterval, checkpointReached }),
    });
  }

  private applyCheckpoints(): void {
    while (this.pending.length > 0 && this.pending[0].after <= this.consumed) {
      const { position } = this.pending.shift()!;
      // Only where to resume moves: an event the iterator already took from the buffer but the
      // loop has not counted yet still goes out, and moves the resume point back to itself.
      if (this.after === undefined || position.commit > this.after) this.resumeFrom = position;
    }
  }
}
