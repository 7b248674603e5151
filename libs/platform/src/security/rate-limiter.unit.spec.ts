import { ApiError } from '@app/core';
import {
  createRateLimiter,
  enforceRateLimit,
  parseRateLimit,
  rateLimitKey,
  retryAfterSeconds,
  TokenBucketRateLimiter,
  UNLIMITED,
} from './rate-limiter';

describe('parseRateLimit', () => {
  it.each([
    ['200/2', { requests: 200, seconds: 2 }],
    [' 5/1 ', { requests: 5, seconds: 1 }],
    ['10/0.5', { requests: 10, seconds: 0.5 }],
  ])('reads %j', (raw, policy) => {
    expect(parseRateLimit(raw)).toEqual(policy);
  });

  it('reads off as no limit', () => {
    expect(parseRateLimit('off')).toBeNull();
  });

  it.each(['', '100', '0/1', '10/0', '-1/1', '1e3/1', '10/s', '10/1/1', '10/100000'])(
    'refuses %j naming the variable',
    (raw) => {
      expect(() => parseRateLimit(raw)).toThrow(/RUNTIME_RATE_LIMIT must be <requests>\/<seconds>/);
    },
  );
});

describe('TokenBucketRateLimiter', () => {
  const at = (start = 0) => {
    let now = start;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('allows a burst of `requests`, then refuses with the wait until the next one', () => {
    const clock = at();
    const limiter = new TokenBucketRateLimiter({ requests: 3, seconds: 3 }, { now: clock.now });
    expect([1, 2, 3].map(() => limiter.take('token:a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('token:a')).toEqual({ allowed: false, retryAfterMs: 1000 });
    clock.advance(400);
    expect(limiter.take('token:a')).toEqual({ allowed: false, retryAfterMs: 600 });
  });

  it('refills evenly over `seconds` and never above the burst', () => {
    const clock = at();
    const limiter = new TokenBucketRateLimiter({ requests: 10, seconds: 1 }, { now: clock.now });
    for (let i = 0; i < 10; i++) limiter.take('k');
    expect(limiter.take('k').allowed).toBe(false);
    clock.advance(100);
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(false);
    clock.advance(60_000);
    const allowed = Array.from({ length: 12 }, () => limiter.take('k').allowed).filter(Boolean).length;
    expect(allowed).toBe(10);
  });

  it('keeps one bucket per key: a flooding key does not slow another', () => {
    const limiter = new TokenBucketRateLimiter({ requests: 2, seconds: 10 }, { now: at().now });
    for (let i = 0; i < 5; i++) limiter.take('token:flood');
    expect(limiter.take('token:flood').allowed).toBe(false);
    expect(limiter.take('token:calm').allowed).toBe(true);
  });

  it('bounds memory: full buckets go first, then the oldest keys', () => {
    const clock = at();
    const limiter = new TokenBucketRateLimiter({ requests: 5, seconds: 1 }, { now: clock.now, maxKeys: 100 });
    for (let i = 0; i < 1000; i++) limiter.take(`ip:10.0.${Math.floor(i / 256)}.${i % 256}`);
    expect(limiter.size).toBeLessThanOrEqual(100);
    // A drained key survives the eviction of full ones.
    for (let i = 0; i < 6; i++) limiter.take('token:busy');
    for (let i = 0; i < 50; i++) limiter.take(`ip:new-${i}`);
    expect(limiter.take('token:busy').allowed).toBe(false);
  });
});

describe('enforceRateLimit', () => {
  it('throws 429 rate_limited with whole seconds to wait', () => {
    const limiter = createRateLimiter({ requests: 1, seconds: 30 });
    enforceRateLimit(limiter, 'token:a');
    let error: unknown;
    try {
      enforceRateLimit(limiter, 'token:a');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'rate_limited', details: { retry_after_seconds: 30 } });
  });

  it('never refuses when off', () => {
    expect(createRateLimiter(null)).toBe(UNLIMITED);
    for (let i = 0; i < 1000; i++) enforceRateLimit(UNLIMITED, 'token:a');
  });

  it.each([
    [1, 1],
    [999, 1],
    [1001, 2],
    [0, 1],
  ])('rounds %i ms up to %i s', (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });
});

describe('rateLimitKey', () => {
  it('names the token by its printable name, else the address, else nothing', () => {
    expect(rateLimitKey('token-2', '10.0.0.1')).toBe('token:token-2');
    expect(rateLimitKey(null, '10.0.0.1')).toBe('ip:10.0.0.1');
    expect(rateLimitKey(null, null)).toBeNull();
  });
});
