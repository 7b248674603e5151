import type { StoredEvent, Subscription } from '../event-store.port';

/** A subscription a spec feeds by hand: each delivered event carries only its stream and revision. */
export class FedSubscription implements Subscription {
  private readonly pending: StoredEvent[] = [];
  private wake: (() => void) | null = null;
  stopped = false;

  deliver(stream: string, revision?: bigint): void {
    this.pending.push({ stream, revision } as StoredEvent);
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    while (!this.stopped) {
      const next = this.pending.shift();
      if (next) yield next;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
