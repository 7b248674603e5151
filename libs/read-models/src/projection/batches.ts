const WOULD_BLOCK = Symbol('would-block');

/**
 * Takes events from an async iterator in batches of up to `max`, without waiting once the
 * iterator would block: a catch-up page arrives as one batch, a live event is applied at once.
 * A `next()` still pending when a batch closes is kept for the following batch, so nothing is lost.
 */
export class Batches<T> {
  private pending?: Promise<IteratorResult<T>>;

  constructor(
    private readonly iterator: AsyncIterator<T>,
    private readonly max: number,
  ) {}

  /** The next batch, or null when the iterator is done. */
  async next(): Promise<T[] | null> {
    const first = await this.take();
    if (first.done) return null;
    const batch = [first.value];
    while (batch.length < this.max) {
      const pending = this.take();
      const next = await Promise.race([
        pending,
        new Promise<typeof WOULD_BLOCK>((resolve) => setImmediate(() => resolve(WOULD_BLOCK))),
      ]);
      if (next === WOULD_BLOCK) {
        this.pending = pending;
        break;
      }
      if (next.done) break;
      batch.push(next.value);
    }
    return batch;
  }

  private take(): Promise<IteratorResult<T>> {
    const pending = this.pending ?? this.iterator.next();
    this.pending = undefined;
    return pending;
  }
}
