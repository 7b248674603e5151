import { ApiError } from '@app/core';
import { LoginThrottle } from './login-throttle';
import { parseLoginThrottle, parseTrustedProxies } from './login-throttle-policy';
import { loadConfig } from '../config/runtime-config';

describe('parseLoginThrottle', () => {
  it.each([
    ['10/60', { failures: 10, windowSeconds: 60, lockSeconds: 60 }],
    [' 5/10/300 ', { failures: 5, windowSeconds: 10, lockSeconds: 300 }],
  ])('reads %j', (raw, policy) => {
    expect(parseLoginThrottle(raw)).toEqual(policy);
  });

  it('reads off', () => {
    expect(parseLoginThrottle('off')).toBeNull();
  });

  it.each(['', '10', '0/60', '10/0', '10/60/0', '10/100000', 'a/b', '10/60/1/1'])(
    'refuses %j naming the variable',
    (raw) => {
      expect(() => parseLoginThrottle(raw)).toThrow(/RUNTIME_LOGIN_THROTTLE must be <failures>\/<window seconds>/);
    },
  );
});

describe('parseTrustedProxies', () => {
  it('reads addresses, CIDRs and the range names', () => {
    expect(parseTrustedProxies(' 10.0.0.0/8, 192.168.1.7,::1 ,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each(['10.0.0.0/33', 'proxy.local', '10.0.0.1/8/8', '::1/129', '*'])('refuses %j', (raw) => {
    expect(() => parseTrustedProxies(raw)).toThrow(/TRUSTED_PROXIES must list addresses or CIDRs/);
  });
});

describe('LoginThrottle', () => {
  const clock = () => {
    let now = 0;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };
  const refusal = (throttle: LoginThrottle, address: string) => {
    try {
      throttle.enforce(address);
      return null;
    } catch (error) {
      return error as ApiError;
    }
  };

  it('locks an address at its 10th failure within the window, for the lock time, and no other address', () => {
    const time = clock();
    const throttle = new LoginThrottle({ failures: 10, windowSeconds: 60, lockSeconds: 60 }, { now: time.now });
    for (let i = 0; i < 9; i++) throttle.recordFailure('10.0.0.1');
    expect(refusal(throttle, '10.0.0.1')).toBeNull();
    throttle.recordFailure('10.0.0.1');
    expect(refusal(throttle, '10.0.0.1')).toMatchObject({
      code: 'rate_limited',
      details: { retry_after_seconds: 60, reason: 'failed_logins' },
    });
    expect(refusal(throttle, '10.0.0.2')).toBeNull();
    time.advance(45_000);
    expect(refusal(throttle, '10.0.0.1')?.details).toMatchObject({ retry_after_seconds: 15 });
    time.advance(15_000);
    expect(refusal(throttle, '10.0.0.1')).toBeNull();
  });

  it('forgets failures older than the window', () => {
    const time = clock();
    const throttle = new LoginThrottle({ failures: 3, windowSeconds: 10, lockSeconds: 10 }, { now: time.now });
    throttle.recordFailure('a');
    throttle.recordFailure('a');
    time.advance(10_000);
    throttle.recordFailure('a');
    throttle.recordFailure('a');
    expect(throttle.lockedFor('a')).toBe(0);
    throttle.recordFailure('a');
    expect(throttle.lockedFor('a')).toBe(10_000);
  });

  it('stays bounded when an attacker rotates addresses, keeping a locked address over idle ones', () => {
    const time = clock();
    const throttle = new LoginThrottle(
      { failures: 2, windowSeconds: 60, lockSeconds: 60 },
      { now: time.now, maxAddresses: 100 },
    );
    for (let i = 0; i < 5000; i++) throttle.recordFailure(`198.51.100.${i}`);
    expect(throttle.size).toBeLessThanOrEqual(100);
    const fresh = new LoginThrottle(
      { failures: 2, windowSeconds: 1, lockSeconds: 600 },
      { now: time.now, maxAddresses: 10 },
    );
    fresh.recordFailure('locked');
    fresh.recordFailure('locked');
    time.advance(2_000);
    for (let i = 0; i < 9; i++) fresh.recordFailure(`idle-${i}`);
    time.advance(2_000);
    fresh.recordFailure('new');
    expect(fresh.lockedFor('locked')).toBeGreaterThan(0);
  });

  it('ignores a request without an address', () => {
    const throttle = new LoginThrottle({ failures: 1, windowSeconds: 60, lockSeconds: 60 });
    throttle.recordFailure(null);
    expect(() => throttle.enforce(null)).not.toThrow();
  });
});

describe('loadConfig of the throttle and the proxies', () => {
  it('leaves both unset by default (the provider applies 10/60), and reads them when set', () => {
    expect(loadConfig({}, '/x')).toMatchObject({ loginThrottle: undefined, trustedProxies: undefined });
    expect(loadConfig({ RUNTIME_LOGIN_THROTTLE: 'off', TRUSTED_PROXIES: '10.0.0.0/8' }, '/x')).toMatchObject({
      loginThrottle: null,
      trustedProxies: ['10.0.0.0/8'],
    });
  });

  it('refuses invalid values at start, naming each variable', () => {
    expect(() => loadConfig({ RUNTIME_LOGIN_THROTTLE: 'lots', TRUSTED_PROXIES: 'proxy.local' }, '/x')).toThrow(
      expect.objectContaining({
        problems: [
          expect.stringMatching(/^TRUSTED_PROXIES must list/),
          expect.stringMatching(/^RUNTIME_LOGIN_THROTTLE must be/),
        ],
      }),
    );
  });
});
