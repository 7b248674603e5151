import { type CoverageSource, lagsOf, type ProjectionLag } from './coverage';

interface Waiter {
  agentId: string | null;
  position: bigint;
  done: (lags: ProjectionLag[]) => void;
}

/**
 * Holds reads back until the read models include a position (read-your-writes, ADR 0023). Every
 * waiter is checked against the source's coverage in memory, when the source says it changed:
 * any number of waiters cost no more database work than the source's own (none for the runner of
 * this process; one notification per checkpoint advance otherwise), and nothing polls.
 */
export class ReadBarrier {
  private readonly waiters = new Set<Waiter>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly source: CoverageSource,
    /** The projections every read waits on (the read models' checkpoints). */
    private readonly projections: readonly string[],
  ) {}

  /** The lags at this moment (empty: covered), without waiting. */
  lags(agentId: string | null, position: bigint): ProjectionLag[] {
    return lagsOf(this.source.current(), this.projections, agentId, position);
  }

  /**
   * Resolves with [] once the read models include `position` for `agentId`, or with the lags
   * still there after `timeoutMs`.
   */
  async waitFor(agentId: string | null, position: bigint, timeoutMs: number): Promise<ProjectionLag[]> {
    if (this.lags(agentId, position).length === 0) return [];
    await this.source.ready();
    if (this.lags(agentId, position).length === 0 || timeoutMs <= 0) return this.lags(agentId, position);
    this.unsubscribe ??= this.source.subscribe(() => this.check());
    return new Promise<ProjectionLag[]>((resolve) => {
      const waiter: Waiter = {
        agentId,
        position,
        done: (lags) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(lags);
        },
      };
      const timer = setTimeout(() => waiter.done(this.lags(agentId, position)), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** How many reads wait now (for specs). */
  get waiting(): number {
    return this.waiters.size;
  }

  async close(): Promise<void> {
    for (const waiter of [...this.waiters]) waiter.done(this.lags(waiter.agentId, waiter.position));
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.source.close();
  }

  private check(): void {
    const coverage = this.source.current();
    for (const waiter of [...this.waiters]) {
      if (lagsOf(coverage, this.projections, waiter.agentId, waiter.position).length === 0) waiter.done([]);
    }
  }
}
