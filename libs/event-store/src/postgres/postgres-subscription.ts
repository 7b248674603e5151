import { Client, type Pool } from 'pg';
import type { StoredEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { StoreUnavailableError } from '../errors';
import { Wakeup, backoffMs, onAbort } from '../support/wakeup';
import { NOTIFY_CHANNEL } from './schema';

export interface PostgresSubscriptionDeps {
  pool: Pool;
  /** Committed events after `after`, in position order, never past an open append. */
  readPage(after: bigint, limit: number): Promise<StoredEvent[]>;
  pollIntervalMs: number;
  onStopped(subscription: PostgresSubscription): void;
}

/**
 * Catch-up subscription: pages through the log by position, then waits for a
 * notification (or the poll interval) and pages again. The position of the last
 * delivered event is the only state, so a reconnect resumes exactly after it.
 */
export class PostgresSubscription implements Subscription {
  private stopped = false;
  private started = false;
  private readonly wakeup = new Wakeup();
  private listener: Client | null = null;
  private listenerRetryAt = 0;
  private detachAbort: () => void = () => undefined;

  constructor(
    private readonly deps: PostgresSubscriptionDeps,
    private readonly options: SubscribeOptions = {},
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
    await this.dropListener();
    this.deps.onStopped(this);
  }

  private async *run(): AsyncGenerator<StoredEvent> {
    let after = this.options.after_position ?? -1n;
    const batch = Math.max(1, this.options.batch_size ?? 500);
    let failures = 0;
    try {
      while (!this.stopped) {
        let page: StoredEvent[];
        try {
          await this.ensureListener(); // before the read: a commit after the read cannot go unnoticed
          page = await this.deps.readPage(after, batch);
          failures = 0;
        } catch (error) {
          if (!(error instanceof StoreUnavailableError)) throw error;
          await this.wakeup.wait(backoffMs(failures++));
          continue;
        }
        for (const event of page) {
          if (this.stopped) return;
          after = event.position;
          yield event;
        }
        if (page.length < batch && !this.stopped) await this.wakeup.wait(this.deps.pollIntervalMs);
      }
    } finally {
      await this.stop();
    }
  }

  /** Best effort: without a listener the subscription still polls. */
  private async ensureListener(): Promise<void> {
    if (this.listener || this.stopped || Date.now() < this.listenerRetryAt) return;
    const client = new Client(this.deps.pool.options);
    client.on('error', () => void this.dropListener());
    client.on('end', () => {
      if (this.listener === client) this.listener = null;
    });
    client.on('notification', () => this.wakeup.wake());
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch {
      this.listenerRetryAt = Date.now() + 1000;
      await client.end().catch(() => undefined);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  private async dropListener(): Promise<void> {
    const client = this.listener;
    this.listener = null;
    if (client) await client.end().catch(() => undefined);
  }
}
