/**
 * Group commit for the Postgres store's appends: while `concurrency` calls are in flight, the
 * appends that arrive wait, and go together in the next call (one round trip and one transaction
 * for several streams: the syscalls and the commit of each call are shared). Nothing waits for a
 * batch to fill: an append that finds a free slot goes at once, alone, so a quiet store answers as
 * fast as before, and the batches grow with the load.
 *
 * A call never holds two appends of one stream: a later one waits for the next call, so the
 * appends of a stream are sent in the order they were made. Each append gets its own outcome; a
 * call that fails as a whole (it rolled back) is retried as one call per append so that each gets
 * its own answer, unless `retryAlone` says the failure is not one of the call (a lost connection:
 * the outcome is then unknown for every append of it, and each gets the error).
 */
export interface BatchedAppend<T> {
  readonly stream: string;
  readonly events: number;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** One append's answer from a call: its value, or the error it is refused with. */
export type AppendOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface AppendBatcherOptions<T, A extends BatchedAppend<T>> {
  /** Sends the appends as one call; the outcomes are in the appends' order. */
  send(batch: A[]): Promise<AppendOutcome<T>[]>;
  /** Whether a call that threw may be retried one append at a time. */
  retryAlone(error: unknown): boolean;
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  /** Most events in one call (default 256; an append with more goes alone). */
  maxEvents?: number;
}

export class AppendBatcher<T, A extends BatchedAppend<T>> {
  private readonly waiting: A[] = [];
  private inFlight = 0;
  private readonly concurrency: number;
  private readonly maxEvents: number;
  /** Calls sent and appends sent in them, for reports (the mean batch size is their ratio). */
  readonly stats = { calls: 0, appends: 0 };

  constructor(private readonly options: AppendBatcherOptions<T, A>) {
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.maxEvents = Math.max(1, options.maxEvents ?? 256);
  }

  add(append: A): void {
    this.waiting.push(append);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.waiting.length > 0) {
      const batch = this.take();
      this.inFlight++;
      void this.run(batch, () => {
        // The slot is free (and the next call sent) before the answers run their callers' continuations.
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The oldest waiting appends, one per stream, up to maxEvents (the first always goes). */
  private take(): A[] {
    const batch: A[] = [];
    const streams = new Set<string>();
    let events = 0;
    let kept = 0;
    for (const append of this.waiting) {
      const fits = batch.length === 0 || events + append.events <= this.maxEvents;
      if (fits && !streams.has(append.stream)) {
        batch.push(append);
        streams.add(append.stream);
        events += append.events;
      } else {
        // A stream seen once stays blocked for this call, so its later appends keep their order.
        streams.add(append.stream);
        this.waiting[kept++] = append;
      }
    }
    this.waiting.length = kept;
    return batch;
  }

  private async run(batch: A[], done: () => void = () => undefined): Promise<void> {
    this.stats.calls++;
    this.stats.appends += batch.length;
    let outcomes: AppendOutcome<T>[];
    try {
      outcomes = await this.options.send(batch);
    } catch (error) {
      done();
      if (batch.length === 1 || !this.options.retryAlone(error)) {
        for (const append of batch) append.reject(error);
        return;
      }
      await Promise.all(batch.map((append) => this.run([append])));
      return;
    }
    done();
    batch.forEach((append, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) append.resolve(outcome.value);
      else append.reject(outcome ? outcome.error : new Error(`no outcome for the append to ${append.stream}`));
    });
  }
}
