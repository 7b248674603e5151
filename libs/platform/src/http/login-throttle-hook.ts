import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginThrottle } from '../security/login-throttle';

/**
 * Routes the lock does not close: probes and the OpenAPI document, the console's static page,
 * and the capability route (it never answers 401: a wrong capability is a 404).
 */
const OPEN_PATH = /^\/(?:health|docs|console)(?:[/?-]|$)|^\/v1\/callbacks\//;

/**
 * The failed-login throttle on HTTP. The client address is Fastify's `request.ip`: the peer,
 * or X-Forwarded-For when the peer is in TRUSTED_PROXIES (Fastify's trustProxy), never a header
 * sent straight by the client. A locked address gets 429 in `onRequest`, before any token is
 * looked at; every 401 answered counts.
 */
export function registerLoginThrottle(fastify: FastifyInstance, throttle: LoginThrottle): void {
  const addressOf = (request: FastifyRequest): string | null => request.ip || null;
  // Callback hooks: no promise per request.
  fastify.addHook('onRequest', (request, _reply, done) => {
    try {
      if (!OPEN_PATH.test(request.url)) throttle.enforce(addressOf(request));
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode === 401) throttle.recordFailure(addressOf(request));
    done();
  });
}
