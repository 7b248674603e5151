import pino from 'pino';
import { TokenBucketRateLimiter, UNLIMITED, type RateLimiter } from './rate-limiter';
import { rateLimiterProvider } from './rate-limiting';

describe('the RATE_LIMITER provider', () => {
  const factory = (rateLimiterProvider as { useFactory: (logger: unknown) => RateLimiter }).useFactory;
  const logger = pino({ level: 'silent' });
  const withEnv = <T>(value: string | undefined, run: () => T): T => {
    const previous = process.env.RUNTIME_RATE_LIMIT;
    if (value === undefined) delete process.env.RUNTIME_RATE_LIMIT;
    else process.env.RUNTIME_RATE_LIMIT = value;
    try {
      return run();
    } finally {
      if (previous === undefined) delete process.env.RUNTIME_RATE_LIMIT;
      else process.env.RUNTIME_RATE_LIMIT = previous;
    }
  };

  it('reads RUNTIME_RATE_LIMIT, default 200/2', () => {
    expect((withEnv(undefined, () => factory(logger)) as TokenBucketRateLimiter).policy).toEqual({
      requests: 200,
      seconds: 2,
    });
    expect((withEnv('30/3', () => factory(logger)) as TokenBucketRateLimiter).policy).toEqual({
      requests: 30,
      seconds: 3,
    });
    expect(withEnv('off', () => factory(logger))).toBe(UNLIMITED);
  });

  it('stops the start-up on an invalid value, naming the variable', () => {
    expect(() => withEnv('lots', () => factory(logger))).toThrow(/RUNTIME_RATE_LIMIT must be <requests>\/<seconds>/);
  });
});
