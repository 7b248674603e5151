import { ApiError } from '@app/core';

/**
 * Per-caller rate limiting shared by both transports (docs/reliability.md, "Hostile input and
 * security"). A token bucket per key: `requests` tokens at most (the burst), refilled evenly
 * over `seconds`, so `RUNTIME_RATE_LIMIT=200/2` allows 200 requests at once and 100 per second
 * sustained. Keys are `token:<token name>` for authenticated calls (never the secret) and
 * `ip:<address>` for the public callback route. In memory, per process.
 */
export interface RateLimitPolicy {
  /** Bucket size: how many requests may arrive at once. */
  readonly requests: number;
  /** Seconds to refill an empty bucket: `requests / seconds` per second sustained. */
  readonly seconds: number;
}

export const RATE_LIMIT_ENV = 'RUNTIME_RATE_LIMIT';
/** 100 requests per second per token sustained, bursts of 200. */
export const DEFAULT_RATE_LIMIT = '200/2';

export interface RateLimitVerdict {
  readonly allowed: boolean;
  /** When refused: milliseconds until one request is allowed again. */
  readonly retryAfterMs: number;
}

export interface RateLimiter {
  /** Take one request from `key`'s bucket. */
  take(key: string): RateLimitVerdict;
}

export const RATE_LIMITER = Symbol('RATE_LIMITER');

/** `<requests>/<seconds>` (e.g. `200/2`), or `off`. Throws naming the variable, never guessing. */
export function parseRateLimit(raw: string): RateLimitPolicy | null {
  const value = raw.trim();
  if (value === 'off') return null;
  const match = /^(\d{1,7})\/(\d{1,5}(?:\.\d{1,3})?)$/.exec(value);
  const requests = match ? Number(match[1]) : NaN;
  const seconds = match ? Number(match[2]) : NaN;
  if (!(requests >= 1) || !(seconds > 0) || seconds > 86_400) {
    throw new Error(
      `${RATE_LIMIT_ENV} must be <requests>/<seconds> (e.g. ${DEFAULT_RATE_LIMIT}: a burst of 200, 100 per second sustained) or off, got '${raw}'`,
    );
  }
  return { requests, seconds };
}

interface Bucket {
  tokens: number;
  at: number;
}

export interface TokenBucketOptions {
  /** Monotonic milliseconds (default performance.now): never the domain clock, which tests freeze. */
  now?: () => number;
  /** Above this many keys, full buckets are dropped, then the oldest (addresses are unbounded). */
  maxKeys?: number;
}

/** The in-memory token buckets. O(1) per request; memory bounded by `maxKeys`. */
export class TokenBucketRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(
    readonly policy: RateLimitPolicy,
    options: TokenBucketOptions = {},
  ) {
    this.perMs = policy.requests / (policy.seconds * 1000);
    this.now = options.now ?? (() => performance.now());
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  get size(): number {
    return this.buckets.size;
  }

  take(key: string): RateLimitVerdict {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxKeys) this.evict(now);
      bucket = { tokens: this.policy.requests, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.policy.requests, bucket.tokens + (now - bucket.at) * this.perMs);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterMs: 0 };
    }
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / this.perMs) };
  }

  /** Full buckets carry no information: drop them; if that is not enough, drop the oldest keys. */
  private evict(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.policy.requests) this.buckets.delete(key);
    }
    const excess = this.buckets.size - Math.floor(this.maxKeys * 0.9);
    if (excess <= 0) return;
    let dropped = 0;
    for (const key of this.buckets.keys()) {
      if (dropped++ >= excess) break;
      this.buckets.delete(key);
    }
  }
}

/** No limit (`RUNTIME_RATE_LIMIT=off`). */
export const UNLIMITED: RateLimiter = { take: () => ({ allowed: true, retryAfterMs: 0 }) };

export function createRateLimiter(policy: RateLimitPolicy | null): RateLimiter {
  return policy === null ? UNLIMITED : new TokenBucketRateLimiter(policy);
}

/** Whole seconds for `Retry-After` (at least 1). */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** Take one request for `key` or throw 429 `rate_limited` with `details.retry_after_seconds`. */
export function enforceRateLimit(limiter: RateLimiter, key: string): void {
  const verdict = limiter.take(key);
  if (verdict.allowed) return;
  const seconds = retryAfterSeconds(verdict.retryAfterMs);
  throw new ApiError('rate_limited', `too many requests: retry after ${seconds} s`, { retry_after_seconds: seconds });
}

/** The bucket of a request: its token's name, else (public callback route) its address; null: not limited. */
export function rateLimitKey(tokenName: string | null, address: string | null): string | null {
  if (tokenName !== null) return `token:${tokenName}`;
  return address === null ? null : `ip:${address}`;
}
