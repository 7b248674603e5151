import type { AgentSnapshot, RecentCommands, SnapshotOutcome, SnapshotStore } from '@app/core';

/**
 * A snapshot as offered: its idempotency window is written out (`commands()`) only when the
 * snapshot is saved. Written out when offered, the window (about 1,000 small arrays and their
 * strings) waited in the queue for its turn, and every scavenge in the meantime copied it: in
 * figure 3's paced runs that was over a third of all the bytes its commands left alive at a
 * scavenge (docs/benchmarks.md, session 17). A snapshot superseded while it waits is never
 * written out at all.
 */
export type OfferedSnapshot<S> = Omit<AgentSnapshot<S>, 'commands'> & { commands: () => RecentCommands };

export interface SnapshotWriterOptions {
  /** Reports a save that failed (a snapshot is only a cache: the agent's next one comes due later). */
  onError?: (error: unknown) => void;
  /** Counts what became of each snapshot offered (the runtime's metrics). */
  onOutcome?: (outcome: SnapshotOutcome) => void;
  /** At most this many agents' snapshots wait; an agent offered beyond it is skipped (default 10,000). */
  maxWaiting?: number;
  /** Least milliseconds from the start of one save to the start of the next (default 20: 50 per second). */
  minIntervalMs?: number;
  /** Monotonic milliseconds and a timer (tests replace them). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Writes agent snapshots in the background, one at a time (docs/decisions/0048).
 *
 * A snapshot carries the agent's state and its idempotency window (about 125 KB of JSON for a full
 * window), and agents under a steady load come due together. Saved as each came due, such a burst
 * took every pooled connection at once and the appends of unrelated commands waited behind it
 * (figure 3: 64 agents crossing their threshold together held commands for about 100 ms). The
 * writer keeps one save in flight and starts at most one every `minIntervalMs`, so a burst goes
 * out one snapshot after another beside the appends, and keeps only the newest waiting snapshot of
 * each agent (a newer one replaces it while it waits).
 */
export class SnapshotWriter<S> {
  /** The snapshots waiting, one per agent, in the order their agents first came due. */
  private readonly waiting = new Map<string, OfferedSnapshot<S>>();
  private draining: Promise<void> | null = null;
  private closed = false;
  private readonly maxWaiting: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** What became of the snapshots offered so far (SnapshotOutcome). */
  readonly stats = { written: 0, superseded: 0, skipped: 0, failed: 0 };

  constructor(
    private readonly store: SnapshotStore,
    private readonly options: SnapshotWriterOptions = {},
  ) {
    this.maxWaiting = Math.max(1, options.maxWaiting ?? 10_000);
    this.minIntervalMs = Math.max(0, options.minIntervalMs ?? 20);
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()));
  }

  /** Queues the snapshot (replacing an older one of its agent that has not gone out yet). */
  offer(snapshot: OfferedSnapshot<S>): void {
    if (this.closed) return;
    const queued = this.waiting.get(snapshot.agent_id);
    if (queued) {
      if (queued.state_version === snapshot.state_version && queued.revision >= snapshot.revision) return;
      this.count('superseded');
    } else if (this.waiting.size >= this.maxWaiting) {
      this.count('skipped');
      return;
    }
    // Replacing keeps the agent's place in the queue (a Map keeps the first insertion's order).
    this.waiting.set(snapshot.agent_id, snapshot);
    this.draining ??= this.drain();
  }

  /** Drops the waiting snapshots and resolves once the save in flight (if any) has ended; later offers are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting.clear();
    await this.idle();
  }

  /** Resolves once every snapshot offered so far is written or has failed. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    // Not inside the command that offered it: serialising a snapshot takes a while (about 1 ms for a full window).
    await new Promise((resolve) => setImmediate(resolve));
    try {
      let started: number | null = null;
      while (this.waiting.size > 0 && !this.closed) {
        // Paced: a burst is spread over time instead of taking a core of Postgres and of this process at once.
        const wait = started === null ? 0 : started + this.minIntervalMs - this.now();
        if (wait > 0) await this.sleep(wait);
        const next = this.first();
        if (!next || this.closed) break;
        started = this.now();
        this.waiting.delete(next.agent_id);
        try {
          await this.store.save({ ...next, commands: next.commands() });
          this.count('written');
        } catch (error) {
          this.count('failed');
          this.options.onError?.(error);
        }
      }
    } finally {
      this.draining = null;
    }
  }

  private count(outcome: SnapshotOutcome): void {
    this.stats[outcome]++;
    this.options.onOutcome?.(outcome);
  }

  private first(): OfferedSnapshot<S> | undefined {
    for (const snapshot of this.waiting.values()) return snapshot;
    return undefined;
  }
}
