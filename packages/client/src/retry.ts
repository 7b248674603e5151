import { RuntimeApiError, RuntimeNetworkError } from './errors';

/** How the client retries (ADR 0025): bounded attempts and total time, jittered exponential backoff. */
export interface RetryPolicy {
  /** Attempts in all, the first included (1: never retry). Default 5. */
  maxAttempts: number;
  /** The first backoff ceiling; each retry doubles it. Default 200 ms. */
  baseDelayMs: number;
  /** The largest backoff ceiling (a Retry-After may ask for more, within maxElapsedMs). Default 5 s. */
  maxDelayMs: number;
  /** No retry starts past this much time since the first attempt. Default 30 s. */
  maxElapsedMs: number;
  /** Told before each wait: which attempt failed, why, and how long the client waits. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  error: RuntimeApiError | RuntimeNetworkError;
  delayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxElapsedMs: 30_000,
};

/** The 503 refusals that say "come back": the store was busy or unreachable, or a read model lags. */
const RETRYABLE_503 = new Set(['contention', 'read_model_lagging', 'unavailable']);

/** Network errors, 429 and the retryable 503s; never another refusal (a 4xx stays a 4xx). */
export function isRetryable(error: unknown): error is RuntimeApiError | RuntimeNetworkError {
  if (error instanceof RuntimeNetworkError) return true;
  if (!(error instanceof RuntimeApiError)) return false;
  return error.status === 429 || (error.status === 503 && RETRYABLE_503.has(error.code));
}

/** "Full jitter": a random delay up to min(maxDelayMs, baseDelayMs * 2^(attempt-1)), but never under Retry-After. */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.round(random() * ceiling);
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
}

export interface RetryEnvironment {
  signal?: AbortSignal;
  now?: () => number;
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, fails with an error that is not retryable, or the policy's
 * attempts or time run out (then the last error is thrown). The caller keeps whatever makes a
 * repeat safe (the Idempotency-Key) the same across attempts.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  environment: RetryEnvironment = {},
): Promise<T> {
  const now = environment.now ?? Date.now;
  const started = now();
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!isRetryable(error) || n >= policy.maxAttempts || environment.signal?.aborted) throw error;
      const delayMs = backoffDelay(
        n,
        policy,
        error instanceof RuntimeApiError ? error.retryAfterMs : undefined,
        environment.random,
      );
      if (now() - started + delayMs > policy.maxElapsedMs) throw error;
      policy.onRetry?.({ attempt: n, error, delayMs });
      await sleep(delayMs, environment.signal);
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
