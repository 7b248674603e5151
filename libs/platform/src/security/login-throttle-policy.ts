import { isIP } from 'node:net';

/**
 * The failed-login throttle's settings (docs/reliability-security.md, "Tokens: roles, names,
 * rotation and the failed-login throttle"): after `failures` 401s from one client address within
 * `windowSeconds`, that address gets 429 `rate_limited` (Retry-After) for `lockSeconds`.
 */
export interface LoginThrottlePolicy {
  readonly failures: number;
  readonly windowSeconds: number;
  readonly lockSeconds: number;
}

export const LOGIN_THROTTLE_ENV = 'RUNTIME_LOGIN_THROTTLE';
/** 10 failed logins per minute per address, then 429 for a minute. */
export const DEFAULT_LOGIN_THROTTLE = '10/60';

/** `<failures>/<window seconds>[/<lock seconds>]` (lock defaults to the window), or `off`. */
export function parseLoginThrottle(raw: string): LoginThrottlePolicy | null {
  const value = raw.trim();
  if (value === 'off') return null;
  const match = /^(\d{1,6})\/(\d{1,6})(?:\/(\d{1,6}))?$/.exec(value);
  const failures = match ? Number(match[1]) : NaN;
  const windowSeconds = match ? Number(match[2]) : NaN;
  const lockSeconds = match?.[3] === undefined ? windowSeconds : Number(match[3]);
  if (!(failures >= 1) || !(windowSeconds >= 1) || !(lockSeconds >= 1) || Math.max(windowSeconds, lockSeconds) > 86_400)
    throw new Error(
      `${LOGIN_THROTTLE_ENV} must be <failures>/<window seconds>[/<lock seconds>] (e.g. ${DEFAULT_LOGIN_THROTTLE}: 10 failed logins a minute, then 429 for a minute; at most 86400 s) or off, got '${raw}'`,
    );
  return { failures, windowSeconds, lockSeconds };
}

/** proxy-addr's names for address ranges, accepted in TRUSTED_PROXIES as Fastify's trustProxy accepts them. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUSTED_PROXIES`: comma-separated addresses or CIDRs (`10.0.0.0/8, 192.168.1.7, ::1`) or the
 * names loopback, linklocal, uniquelocal. Only a request whose peer is one of them has its client
 * address taken from X-Forwarded-For.
 */
export function parseTrustedProxies(raw: string): string[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const bad = entries.find((entry) => !isProxyEntry(entry));
  if (bad !== undefined)
    throw new Error(
      `TRUSTED_PROXIES must list addresses or CIDRs separated by commas (e.g. 10.0.0.0/8,::1) or loopback, linklocal, uniquelocal; '${bad}' is none of them`,
    );
  return entries;
}

function isProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
