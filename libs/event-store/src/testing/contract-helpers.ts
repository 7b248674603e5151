import { randomUUID } from 'node:crypto';
import type { EventStore, EventToAppend, ExpectedRevision, StoredEvent, Subscription } from '../event-store.port';

/** An append left uncommitted until the test says so (Postgres: an explicit BEGIN on its own connection). */
export interface OpenAppend {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface ContractOptions {
  /** Enables the out-of-order-commit cases; only a store with client-visible transactions has it. */
  openTransactionAppend?: (stream: string, events: EventToAppend[], expected: ExpectedRevision) => Promise<OpenAppend>;
}

export type StoreGetter = () => EventStore;

/** Fresh stream names per test instead of truncation: suites share one database/server. */
export function uniqueStream(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

export function newEvent(type = 'ContractEventRecorded', data: Record<string, unknown> = {}): EventToAppend {
  return { id: randomUUID(), type, data, metadata: { correlation_id: randomUUID(), schema_version: 1 } };
}

export function newEvents(count: number, type?: string): EventToAppend[] {
  return Array.from({ length: count }, (_, index) => newEvent(type, { index }));
}

/**
 * Drains a subscription in the background so a test can append, wait for what it
 * expects, and stop. `all` keeps every delivered event (also other suites' events, for
 * the ordering checks); `events` only those the filter accepts.
 */
export class Collector {
  readonly all: StoredEvent[] = [];
  readonly events: StoredEvent[] = [];
  readonly finished: Promise<void>;
  error: unknown = undefined;
  private done = false;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly subscription: Subscription,
    private readonly accept: (event: StoredEvent) => boolean = () => true,
  ) {
    this.finished = this.drain();
  }

  /** Resolves once `predicate(events)` holds; rejects after `timeoutMs` with what was seen. */
  async waitFor(predicate: (events: StoredEvent[]) => boolean, timeoutMs = 8000): Promise<StoredEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.events)) {
      if (this.error !== undefined) throw this.error;
      if (this.done) throw new Error(`subscription ended after ${this.events.length} events`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timed out with ${this.events.length} events: ${this.events.map((e) => e.type).join(',')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, Math.min(left, 250));
        const waiters = this.waiters;
        function wake(): void {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        }
        waiters.add(wake);
      });
    }
    return this.events;
  }

  async stop(): Promise<void> {
    await this.subscription.stop();
    await this.finished;
  }

  get isDone(): boolean {
    return this.done;
  }

  private async drain(): Promise<void> {
    try {
      for await (const event of this.subscription) {
        this.all.push(event);
        if (this.accept(event)) this.events.push(event);
        this.notify();
      }
    } catch (error) {
      this.error = error;
    } finally {
      this.done = true;
      this.notify();
    }
  }

  private notify(): void {
    for (const wake of [...this.waiters]) wake();
  }
}

/** Condition waits live in ./eventually (one helper for every spec); re-exported for the contract suites. */
export { until, untilAsync } from './eventually';

export function positions(events: StoredEvent[]): bigint[] {
  return events.map((e) => e.position);
}

export function isStrictlyIncreasing(values: bigint[]): boolean {
  return values.every((value, index) => index === 0 || value > values[index - 1]);
}

export function streamsStartingWith(prefix: string): (event: StoredEvent) => boolean {
  return (event) => event.stream.startsWith(prefix);
}
