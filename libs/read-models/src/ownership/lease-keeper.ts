import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { LeaseTable } from './lease-table';

/** The lease under which a replica acts, as written into the metadata of the events it appends (audit). */
export interface LeaseAudit {
  lease_group: string;
  lease_shard: number;
  lease_epoch: number;
  lease_owner: string;
}

/** What one lease round changed for this replica (a shard re-claimed under a new epoch is in both). */
export interface LeaseChange {
  gained: readonly number[];
  lost: readonly number[];
}

export interface LeaseKeeperOptions {
  /** How long a lease lasts after a round (ms). */
  ttlMs: number;
  /** Between rounds (default a third of the TTL: two rounds may fail before a lease lapses). */
  renewEveryMs?: number;
  /** This replica's id in the lease rows (default host:pid:random). */
  owner?: string;
  /** A monotonic clock in ms for the local deadlines (default performance.now); specs move it to act out a pause. */
  now?: () => number;
  /** At start, end every lease of the group first (the database is this process's alone: they are a dead run's). */
  takeOver?: boolean;
  /** False: no timer, a round runs only when `round()` is called (specs). Default true. */
  autoRenew?: boolean;
  onError?: (error: unknown) => void;
}

/** A replica id: unique per keeper (two keepers in one process are two replicas). */
export const replicaId = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * One replica's leases in one group: runs a lease round (LeaseTable.round) every `renewEveryMs`
 * and knows until when each shard it holds is surely still its own. That local deadline is the
 * time the round was sent plus the TTL less a tenth: the database set the expiry at its own now()
 * plus the TTL, after the round was sent, so the replica stops acting on a shard before any other
 * replica can claim it. A replica that was paused (GC, SIGSTOP, a slow disk) finds its deadlines
 * past when it wakes and acts on nothing until a round gives the shards back; a write it had
 * already started is refused by the store (the scheduler's writes name the stream revision they
 * were decided on: ADR 0035).
 */
export class LeaseKeeper {
  readonly owner: string;
  private held = new Map<number, { epoch: number; until: number }>();
  private readonly listeners = new Set<(change: LeaseChange) => void>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private started = false;
  private startedAt: number | null = null;

  constructor(
    private readonly table: LeaseTable,
    private readonly options: LeaseKeeperOptions,
  ) {
    this.owner = options.owner ?? replicaId();
    this.now = options.now ?? (() => performance.now());
  }

  get group(): string {
    return this.table.group;
  }

  /** Prepares the rows and runs the first round: a lone replica holds every shard when this resolves. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.startedAt = this.now();
    await this.table.prepare({ takeOver: this.options.takeOver === true });
    await this.round();
    if (this.options.autoRenew !== false) this.schedule();
  }

  /** Stops renewing and releases what it holds (a standby takes over on its next round). */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.startedAt = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    const lost = [...this.held.keys()];
    this.held = new Map();
    if (lost.length > 0) this.emit({ gained: [], lost });
    await this.table.release(this.owner).catch((error) => this.options.onError?.(error));
  }

  /**
   * Stops renewing without releasing: what a hung replica does (its leases lapse after the TTL and
   * another replica claims them). For specs and drills; `stop()` is the clean way out.
   */
  suspend(): void {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The lease on `shard` when this replica surely holds it now, else null. */
  lease(shard: number): LeaseAudit | null {
    const held = this.held.get(shard);
    if (!held || held.until <= this.now()) return null;
    return { lease_group: this.table.group, lease_shard: shard, lease_epoch: held.epoch, lease_owner: this.owner };
  }

  /** True when the last round gave this replica `shard` but its local deadline has passed since. */
  lapsed(shard: number): boolean {
    const held = this.held.get(shard);
    return held !== undefined && held.until <= this.now();
  }

  /** The shards held now, ascending. */
  shards(): number[] {
    const now = this.now();
    return [...this.held]
      .filter(([, held]) => held.until > now)
      .map(([shard]) => shard)
      .sort((a, b) => a - b);
  }

  /**
   * The readiness rule (ADR 0036): null while this replica holds a lease of its group, was
   * stopped, or started less than one TTL ago; else, when some lease of the group has been free
   * for longer than one TTL (a working keeper claims a free lease within a third of it), why it
   * is not ready. A standby whose group is all held elsewhere is ready.
   */
  async missingLease(): Promise<string | null> {
    // A stopped keeper is not asked (startedAt null); a suspended one (hung) is.
    if (this.startedAt === null || this.shards().length > 0) return null;
    if (this.now() - this.startedAt < this.options.ttlMs) return null;
    const free = await this.table.freeLongerThan(this.options.ttlMs);
    if (free === 0) return null;
    return `it holds no ${this.table.group} lease while ${free} of ${this.table.shards} have been free for over ${this.options.ttlMs} ms`;
  }

  /** Told after every round that changed what this replica holds; returns the unsubscribe. */
  onChange(listener: (change: LeaseChange) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** One lease round now (after any round in flight). A failed round keeps the leases until their deadlines. */
  round(): Promise<void> {
    this.running = this.running.then(() => this.roundNow());
    return this.running;
  }

  private async roundNow(): Promise<void> {
    const sentAt = this.now();
    const until = sentAt + this.options.ttlMs * 0.9;
    let next: Map<number, { epoch: number; until: number }>;
    try {
      const rows = await this.table.round(this.owner, this.options.ttlMs);
      next = new Map(rows.map((row) => [row.shard, { epoch: row.epoch, until }]));
    } catch (error) {
      this.options.onError?.(error);
      const now = this.now();
      next = new Map([...this.held].filter(([, held]) => held.until > now));
    }
    // A shard whose local deadline passed before this round was not acted on meanwhile: even when the
    // round renews it, listeners hear it as lost and gained again (the worker evaluates its agents anew).
    const gained: number[] = [];
    const lost: number[] = [];
    for (const [shard, before] of this.held) {
      const after = next.get(shard);
      if (!after) lost.push(shard);
      else if (after.epoch !== before.epoch || before.until <= sentAt) (lost.push(shard), gained.push(shard));
    }
    for (const shard of next.keys()) if (!this.held.has(shard)) gained.push(shard);
    this.held = next;
    if (gained.length > 0 || lost.length > 0) this.emit({ gained, lost });
  }

  private emit(change: LeaseChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }

  private schedule(): void {
    const every = this.options.renewEveryMs ?? Math.max(50, Math.floor(this.options.ttlMs / 3));
    this.timer = setTimeout(() => {
      void this.round().finally(() => {
        if (this.started) this.schedule();
      });
    }, every);
    this.timer.unref?.();
  }
}
