/**
 * A level-triggered wake-up for "wait for new events or a timeout". A wake() that
 * arrives while nobody waits is remembered, so a notification received during a read
 * is never lost: the next wait() returns at once.
 */
export class Wakeup {
  private signalled = false;
  private resolveWaiter: (() => void) | null = null;

  wake(): void {
    this.signalled = true;
    this.resolveWaiter?.();
  }

  /** Resolves on wake() or after `timeoutMs`, whichever comes first. */
  wait(timeoutMs: number): Promise<void> {
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.resolveWaiter = null;
        self.signalled = false;
        resolve();
      }
      this.resolveWaiter = done;
    });
  }
}

/** Exponential backoff for reconnect loops: 100 ms, 200 ms ... capped at 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5000, 100 * 2 ** Math.min(attempt, 6));
}

/** Run `stop` once when the signal aborts; returns a function that detaches the listener. */
export function onAbort(signal: AbortSignal | undefined, stop: () => void): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    stop();
    return () => undefined;
  }
  signal.addEventListener('abort', stop, { once: true });
  return () => signal.removeEventListener('abort', stop);
}
