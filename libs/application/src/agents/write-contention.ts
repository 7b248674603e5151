import { ApiError, type RuntimeMetrics } from '@app/core';

/** How a command without expected_revision retries when another process wrote the agent first. */
export interface ContentionRetry {
  /** Retries after the first attempt (default 30). */
  maxRetries: number;
  /** No retry starts after this long since the first attempt (ms, default 10 000). */
  budgetMs: number;
  /** The backoff before retry n is a random share of min(maxDelayMs, baseDelayMs * 2^n) (ms). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** What `Retry-After` says once the retries ran out (seconds). */
  retryAfterSeconds: number;
  random: () => number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_CONTENTION_RETRY: ContentionRetry = {
  maxRetries: 30,
  budgetMs: 10_000,
  baseDelayMs: 5,
  maxDelayMs: 250,
  retryAfterSeconds: 1,
  random: Math.random,
  now: Date.now,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Full jitter: a uniformly random wait below the capped exponential step, so racing writers spread out. */
export function backoffMs(policy: ContentionRetry, retry: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(policy.random() * ceiling);
}

/**
 * What follows an append another writer beat (counted in the metrics): `reload` for a caller's
 * own expected_revision (now stale: the next load answers 409), `retry` after a backoff, or 503
 * `contention` once the retries or the time budget since `started` ran out.
 */
export function afterConflict(
  policy: ContentionRetry,
  ctx: { agentId: string; expectedRevision?: bigint },
  attempt: number,
  started: number,
  metrics?: Pick<RuntimeMetrics, 'appendConflict'>,
): 'reload' | 'retry' {
  const spent = attempt >= policy.maxRetries || policy.now() - started >= policy.budgetMs;
  const retried = ctx.expectedRevision === undefined && !spent;
  metrics?.appendConflict(retried);
  if (ctx.expectedRevision !== undefined) return 'reload';
  if (!retried) throw contentionError(ctx.agentId, policy, attempt + 1);
  return 'retry';
}

/**
 * 503 `contention` with `Retry-After`: other writers kept winning the agent stream for longer
 * than a command without expected_revision retries. Nothing was written; the same request
 * (with its Idempotency-Key) may be sent again.
 */
export function contentionError(agentId: string, policy: ContentionRetry, attempts: number): ApiError {
  return new ApiError(
    'contention',
    `agent ${agentId} is being written by other writers: nothing was recorded, retry after ${policy.retryAfterSeconds} s`,
    { agent_id: agentId, attempts, retry_after_seconds: policy.retryAfterSeconds },
  );
}

/** 422 `idempotency_key_reused`: the key already names a different request on this agent. Nothing is written. */
export function idempotencyKeyReused(agentId: string): ApiError {
  return new ApiError(
    'idempotency_key_reused',
    'this Idempotency-Key was already used for a different request on this agent (another command or other data): nothing was recorded',
    { agent_id: agentId },
  );
}
