import pino from 'pino';
import { loadConfig } from '../config/runtime-config';
import { TokenBucketRateLimiter, UNLIMITED, type RateLimiter } from './rate-limiter';
import { rateLimiterProvider } from './rate-limiting';

describe('the RATE_LIMITER provider', () => {
  const factory = (rateLimiterProvider as { useFactory: (config: unknown, logger: unknown) => RateLimiter }).useFactory;
  const logger = pino({ level: 'silent' });
  const limiterFor = (env: Record<string, string>) => factory(loadConfig(env, '/srv'), logger);

  it("takes the configuration's RUNTIME_RATE_LIMIT, default 200/2, not the process environment", () => {
    const previous = process.env.RUNTIME_RATE_LIMIT;
    process.env.RUNTIME_RATE_LIMIT = '1/1';
    try {
      expect((limiterFor({}) as TokenBucketRateLimiter).policy).toEqual({ requests: 200, seconds: 2 });
    } finally {
      if (previous === undefined) delete process.env.RUNTIME_RATE_LIMIT;
      else process.env.RUNTIME_RATE_LIMIT = previous;
    }
    expect((limiterFor({ RUNTIME_RATE_LIMIT: '30/3' }) as TokenBucketRateLimiter).policy).toEqual({
      requests: 30,
      seconds: 3,
    });
    expect(limiterFor({ RUNTIME_RATE_LIMIT: 'off' })).toBe(UNLIMITED);
  });
});
