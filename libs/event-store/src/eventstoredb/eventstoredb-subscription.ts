import { START, type AllStreamSubscription, type Position } from '@eventstore/db-client';
import type { StoredEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { MAX_UINT64 } from '../revisions';
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
            // Counted once handed out and the consumer asked for more: a checkpoint after it counts now.
            this.consumed += 1;
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
    let pushed = 0;
    const checkpointReached = (_: AllStreamSubscription, position: Position): void => {
      // The client calls this in order with the events: every event before it is pushed into its
      // buffer, but some may wait there or be on their way out: it counts once all are delivered.
      this.pending.push({ position, after: pushed });
      this.applyCheckpoints();
    };
    const subscription = this.client.subscribeToAll({
      fromPosition: this.resumeFrom ?? START,
      filter: logFilter(this.options.scope, { checkpointInterval: this.options.checkpointInterval, checkpointReached }),
    });
    countPushes(subscription, () => (pushed += 1));
    return subscription;
  }

  private applyCheckpoints(): void {
    while (this.pending.length > 0 && this.pending[0].after <= this.consumed) {
      const { position } = this.pending.shift()!;
      // Only where to resume moves: an event the iterator already took from the buffer but the
      // loop has not counted yet still goes out, and moves the resume point back to itself.
      if (this.after === undefined || position.commit > this.after) {
        this.resumeFrom = position;
        this.tell(position);
      }
    }
  }

  /**
   * The consumer hears of the checkpoint once every event before it is handed out. As a bigint
   * it is the lower of the two log positions: resuming after it never passes the checkpoint.
   */
  private tell(position: Position): void {
    const notify = this.options.on_checkpoint;
    if (!notify || this.stopped) return;
    const at = position.prepare < position.commit ? position.prepare : position.commit;
    if (at < 0n || at >= MAX_UINT64) return;
    try {
      notify(at);
    } catch {
      // The consumer's trouble, not the subscription's: it keeps delivering.
    }
  }
}

/**
 * Counts the events the client's subscription (a Transform stream) pushes into its buffer. Its
 * readable length alone misses an event the reader has taken from the buffer but not yet handed
 * on, so a checkpoint would count before that event is delivered (the consumer would resume past it).
 */
function countPushes(subscription: EsdbSubscription, count: () => void): void {
  const stream = subscription as EsdbSubscription & { push?: (chunk: unknown, encoding?: BufferEncoding) => boolean };
  const push = stream.push;
  if (typeof push !== 'function') throw new Error('the EventStoreDB client subscription is not a readable stream');
  stream.push = function (this: unknown, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk !== null) count();
    return push.call(stream, chunk, encoding);
  };
}
