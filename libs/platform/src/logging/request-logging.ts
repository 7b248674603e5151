import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuse a caller's `x-request-id` when it is harmless, else make one. */
export function requestIdFor(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** The path without its query, and with capability tokens in callback URLs hidden. */
export function loggablePath(url: string): string {
  const path = url.split('?')[0] ?? url;
  // The segment after any `callbacks/`, and anything shaped like a callback token (`cb1.`),
  // whatever the path around it: a client's typo must not log a valid capability.
  return path.replace(/(\/callbacks\/+)[^/]+/gi, '$1[redacted]').replace(/(^|\/)(cb1\.|cb1%2e)[^/]*/gi, '$1[redacted]');
}

/** What one request contributes to the log: never headers, never bodies. */
export function requestLogRecord(request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  return {
    req_id: request.id,
    method: request.method,
    path: loggablePath(request.url),
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 100) / 100,
  };
}

/** One line per request, after the reply, with the request id echoed as `x-request-id`. */
export function registerRequestLogging(fastify: FastifyInstance, logger: Logger): void {
  const log = logger.child({ component: 'http' });
  // Callback hooks (no promise per request), and no record built for a level that is off.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const failed = reply.statusCode >= 500;
    if (log.isLevelEnabled(failed ? 'error' : 'info')) {
      const record = requestLogRecord(request, reply);
      if (failed) log.error(record, 'request failed');
      else log.info(record, 'request');
    }
    done();
  });
}
