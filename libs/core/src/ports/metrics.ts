/**
 * What became of an agent snapshot offered to the command side's writer: `written`, `failed`,
 * `superseded` (a newer one of its agent replaced it while it waited) or `skipped` (the queue was full).
 */
export type SnapshotOutcome = 'written' | 'failed' | 'superseded' | 'skipped';

/**
 * What the command side, the scheduler and the projector report to the operator's metrics
 * (GET /metrics, ADR 0032). The platform implements it with prom-client; without it (unit specs,
 * the CLI) nothing is counted. Every method is a counter increment or a histogram observation:
 * no per-call allocation beyond that, and no label that grows with the fleet (no agent id).
 */
export interface RuntimeMetrics {
  /** One append to an agent stream that succeeded, and how long it took (seconds). */
  appendObserved(seconds: number): void;
  /** An append beaten by another writer (a wrong expected revision); `retried`: the command decides again. */
  appendConflict(retried: boolean): void;
  /** A scheduler decision recorded, by kind (`StartModelTurn`, `Sleep`...). */
  schedulerDecision(kind: string): void;
  /** A lease that ran out and was expired by the scheduler (`turn`, `task`). */
  leaseExpired(kind: string): void;
  /**
   * Something that had failed is working again: `scheduler_step` (an agent whose evaluation failed
   * was evaluated), and later the shard leases of issue 18 (`shard`: a lease taken over).
   */
  recovered(kind: string): void;
  /** A timer fired `seconds` after its fire_at (the scheduler's lateness). */
  timerLateness(seconds: number): void;
  /** A load of an agent found its state in the in-memory cache (hit) or folded it (miss); optional. */
  agentCacheLookup?(hit: boolean): void;
  /** The in-memory agent cache now holds `entries` agents of about `bytes` (their states' JSON size); optional. */
  agentCacheSize?(bytes: number, entries: number): void;
  /** The scheduler worker evaluated one agent (whether or not it recorded a decision); optional. */
  schedulerEvaluated?(): void;
  /** An agent snapshot left the writer's queue (docs/decisions/0048); optional. */
  agentSnapshot?(outcome: SnapshotOutcome): void;
}

/** The Nest token of the RuntimeMetrics the platform provides (optional everywhere it is injected). */
export const RUNTIME_METRICS = Symbol('RUNTIME_METRICS');

/** Counts nothing: what the libraries use when no platform provides metrics. */
export const NO_METRICS: RuntimeMetrics = Object.freeze({
  appendObserved: () => undefined,
  appendConflict: () => undefined,
  schedulerDecision: () => undefined,
  leaseExpired: () => undefined,
  recovered: () => undefined,
  timerLateness: () => undefined,
});

/**
 * Whether this replica holds the leases it should (GET /health/ready). Leases do not exist yet:
 * the scheduler's shard leases (issue 18) provide this token; without a provider the check passes.
 */
export interface LeaseReadiness {
  /** null: every lease this replica should hold is held; else why not (a short sentence). */
  missingLease(): Promise<string | null>;
}

export const LEASE_READINESS = Symbol('LEASE_READINESS');
