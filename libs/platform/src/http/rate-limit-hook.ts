import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestAuthorizer } from '@app/application';
import { enforceRateLimit, rateLimitKey, type RateLimiter } from '../security/rate-limiter';

/** Never limited: liveness probes and the OpenAPI document must answer whoever floods. */
const UNLIMITED_PATH = /^\/(?:health|docs)(?:[/?-]|$)/;
/** The public capability route: without a bearer token it is limited per client address. */
const CALLBACK_PATH = /^\/v1\/callbacks\//;

export interface HttpRateLimitDeps {
  limiter: RateLimiter;
  /** The shared authorizer, asked with a `public` requirement: a caller or null, never a refusal. */
  authorizer: RequestAuthorizer;
}

/**
 * The bucket of an HTTP request, or null when it is not limited (see the patterns above). The
 * header's caller is kept on the request (`authenticated`) for the guard: one authentication
 * per request.
 */
export function httpRateLimitKey(
  request: Pick<FastifyRequest, 'url' | 'ip' | 'headers' | 'authenticated'>,
  authorizer: RequestAuthorizer,
): string | null {
  const path = request.url;
  if (UNLIMITED_PATH.test(path)) return null;
  const authorization = request.headers.authorization;
  const caller = authorizer.authorize(authorization, { kind: 'public' });
  request.authenticated = { authorization, caller };
  if (caller) return rateLimitKey(caller.tokenName, null);
  // No valid token: a protected route answers 401 in the guard (cheap, nothing read or written).
  return CALLBACK_PATH.test(path) ? rateLimitKey(null, request.ip ?? null) : null;
}

/**
 * 429 `rate_limited` (with `Retry-After`, set by the exception filter) in `onRequest`: before
 * the body is read or parsed, so a flooding token costs one hash and one map lookup per request.
 * Route-specific authorization stays in the guard.
 */
export function registerRateLimiting(fastify: FastifyInstance, deps: HttpRateLimitDeps): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    try {
      const key = httpRateLimitKey(request, deps.authorizer);
      if (key !== null) enforceRateLimit(deps.limiter, key);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
}
