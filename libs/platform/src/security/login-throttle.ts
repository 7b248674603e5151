import { ApiError } from '@app/core';
import type { LoginThrottlePolicy } from './login-throttle-policy';
import { retryAfterSeconds } from './rate-limiter';

interface Entry {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

export interface LoginThrottleOptions {
  /** Monotonic milliseconds (default performance.now). */
  now?: () => number;
  /** Addresses remembered at most: an attacker rotating addresses cannot grow the map past it. */
  maxAddresses?: number;
}

/**
 * Failed logins (401s) per client address, both transports: after `failures` within the window
 * the address is locked for `lockSeconds` and every request from it that needs a token gets 429,
 * a valid token included (otherwise the lock would still tell a right guess from a wrong one).
 * In memory, per process, bounded by `maxAddresses` (idle entries go first, then the oldest).
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxAddresses: number;

  constructor(
    readonly policy: LoginThrottlePolicy,
    options: LoginThrottleOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.maxAddresses = options.maxAddresses ?? 10_000;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds the address stays locked; 0 when it may try. */
  lockedFor(address: string): number {
    const entry = this.entries.get(address);
    return entry === undefined ? 0 : Math.max(0, Math.ceil(entry.lockedUntil - this.now()));
  }

  /** Throw 429 `rate_limited` (details.retry_after_seconds, reason failed_logins) when the address is locked. */
  enforce(address: string | null): void {
    if (address === null) return;
    const ms = this.lockedFor(address);
    if (ms <= 0) return;
    const seconds = retryAfterSeconds(ms);
    throw new ApiError('rate_limited', `too many failed logins from this address: retry after ${seconds} s`, {
      retry_after_seconds: seconds,
      reason: 'failed_logins',
    });
  }

  /** Count one 401 from the address; the one that reaches the limit locks it. */
  recordFailure(address: string | null): void {
    if (address === null) return;
    const now = this.now();
    const windowMs = this.policy.windowSeconds * 1000;
    let entry = this.entries.get(address);
    if (entry === undefined) {
      if (this.entries.size >= this.maxAddresses) this.evict(now);
      entry = { failures: 0, windowStart: now, lockedUntil: 0 };
    } else {
      this.entries.delete(address); // re-inserted below: the map stays in order of last failure
      if (now - entry.windowStart >= windowMs) {
        entry.failures = 0;
        entry.windowStart = now;
      }
    }
    this.entries.set(address, entry);
    entry.failures += 1;
    if (entry.failures >= this.policy.failures) {
      entry.lockedUntil = now + this.policy.lockSeconds * 1000;
      entry.failures = 0;
      entry.windowStart = entry.lockedUntil;
    }
  }

  /** Entries whose window and lock are over carry nothing: drop them; then the least recently failing. */
  private evict(now: number): void {
    const windowMs = this.policy.windowSeconds * 1000;
    for (const [address, entry] of this.entries) {
      if (entry.lockedUntil <= now && now - entry.windowStart >= windowMs) this.entries.delete(address);
    }
    const excess = this.entries.size - Math.floor(this.maxAddresses * 0.9);
    let dropped = 0;
    for (const address of this.entries.keys()) {
      if (dropped++ >= excess) break;
      this.entries.delete(address);
    }
  }
}
