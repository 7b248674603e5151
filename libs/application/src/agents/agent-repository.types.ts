import type { DomainEvent, RuntimeMetrics, TraceContextFields } from '@app/core';
import type { CommandScope } from './command-windows';
import type { IdempotencyWindow } from './idempotency-window';
import type { ContentionRetry } from './write-contention';

// The shapes AgentRepository takes and gives (agent-repository.ts).

/** An agent as the repository holds it between commands: its state, revision and idempotency windows. */
export interface LoadedAgent<S> {
  state: S;
  /** Revision of the last event folded in, or null for a stream that does not exist. */
  revision: bigint | null;
  /** Global position of that event: null with no stream, undefined when the fold did not read it (a snapshot). */
  position?: bigint | null;
  /** The callers' command ids (Idempotency-Key / command_id). */
  commands: IdempotencyWindow;
  /** The scheduler's own command ids: they never push callers' keys out. */
  schedulerCommands: IdempotencyWindow;
  /** Events folded since the last snapshot was taken. */
  sinceSnapshot: number;
  /** About how many bytes the state takes (its JSON size at the last fold, plus the events since): the cache's measure. */
  bytes?: number;
}

export interface TransactRequest {
  agentId: string;
  /** Idempotency key: a repeat returns the first result and appends nothing. */
  commandId: string;
  /** The caller's optimistic check on the agent stream revision (409 on mismatch). */
  expectedRevision?: bigint;
  /** The request's fingerprint: the same key with another fingerprint is 422 `idempotency_key_reused`. */
  fingerprint?: string;
  /** Default `caller`. */
  scope?: CommandScope;
  actor: string;
  correlationId?: string;
  causationId?: string;
  /** More metadata fields for every event appended (audit: the scheduler's lease); the standard fields win. */
  metadata?: Readonly<Record<string, string | number>>;
}

export interface TransactResult<S, E extends DomainEvent> {
  before: S;
  after: S;
  events: E[];
  /** Stream revision after the write (or the current one when nothing was written). */
  revision: bigint | null;
  /** True when the command id had already been applied: the first result is returned. */
  repeated: boolean;
  /** Global position of the last event written (a repeat or a no-op: the agent's last event's; null: no stream). */
  position: bigint | null;
}

export interface AgentRepositoryOptions {
  /** Retries of a command without expected_revision that another process's write beat (default 30). */
  maxRetries?: number;
  /** The rest of the retry policy (budget, jittered backoff, Retry-After). */
  retry?: Partial<ContentionRetry>;
  snapshotEvery?: number;
  /** At most this many agents in the in-memory cache (default: bounded by bytes only). */
  cacheSize?: number;
  /** AGENT_CACHE_MAX_BYTES: the in-memory cache holds states of about this many bytes at most, least recently used out first. */
  cacheMaxBytes?: number;
  onSnapshotError?: (error: unknown) => void;
  metrics?: RuntimeMetrics; // append latency and conflicts (GET /metrics); default: not counted
  /** The active trace context, stored in each appended event's metadata (absent or {}: none is stored). */
  traceContext?: () => TraceContextFields;
}
