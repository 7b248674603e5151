import { START, excludeSystemEvents, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import type { StoredEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { Wakeup, backoffMs, onAbort } from '../support/wakeup';
import {
  fromRecordedEvent,
  isEsdbUnavailable,
  isSystemEvent,
  mapEsdbError,
  toEsdbPosition,
} from './eventstoredb-mapping';

/**
 * $all catch-up subscription that survives a lost connection: the position of the last
 * delivered event is the only state, and each reconnect subscribes (exclusively) after it.
 */
export class EventStoreDbSubscription implements Subscription {
  private stopped = false;
  private started = false;
  private current: AllStreamSubscription | null = null;
  private readonly wakeup = new Wakeup();
  private detachAbort: () => void = () => undefined;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly options: SubscribeOptions,
    private readonly onStopped: (subscription: EventStoreDbSubscription) => void,
  ) {
    this.detachAbort = onAbort(options.signal, () => void this.stop());
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

  private async *run(): AsyncGenerator<StoredEvent> {
    let after = this.options.after_position;
    let failures = 0;
    try {
      while (!this.stopped) {
        const subscription = this.client.subscribeToAll({
          fromPosition: after === undefined ? START : toEsdbPosition(after),
          filter: excludeSystemEvents(),
        });
        this.current = subscription;
        try {
          for await (const resolved of subscription) {
            if (this.stopped) return;
            const event = resolved.event;
            if (!event || isSystemEvent(event)) continue;
            const stored = fromRecordedEvent(event);
            if (after !== undefined && stored.position <= after) continue; // defensive: never repeat
            after = stored.position;
            failures = 0;
            yield stored;
          }
        } catch (error) {
          if (this.stopped) return;
          if (!isEsdbUnavailable(error)) throw mapEsdbError(error);
        } finally {
          if (this.current === subscription) this.current = null;
          await subscription.unsubscribe().catch(() => undefined);
        }
        // The server ended the stream or the connection dropped: resume after `after`.
        if (!this.stopped) await this.wakeup.wait(backoffMs(failures++));
      }
    } finally {
      await this.stop();
    }
  }
}
