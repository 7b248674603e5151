import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, HTTP_STATUS_BY_CODE, type ErrorCode, type ErrorEnvelope } from '@app/core';
import { bigintReplacer } from '../errors/json-safe';
import { requestIdFor } from '../logging/request-logging';
import { assertStorableText, parseGuardedJson } from './json-guard';

/** Request bodies over this are 413 before parsing (docs/api.md, Requests). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Ids may be 128 characters and callback tokens ~150 (Fastify's default is 100). */
export const MAX_PATH_PARAM_LENGTH = 600;

/**
 * `trustedProxies` (TRUSTED_PROXIES): the peers whose X-Forwarded-For gives `request.ip`
 * (Fastify's trustProxy, proxy-addr's rules); empty: the peer address, whatever the headers say.
 */
export function createFastifyAdapter(trustedProxies: readonly string[] = []): FastifyAdapter {
  return new FastifyAdapter({
    trustProxy: trustedProxies.length > 0 ? [...trustedProxies] : false,
    bodyLimit: MAX_BODY_BYTES,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    genReqId: requestIdFor,
    logger: false,
    forceCloseConnections: 'idle',
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
}

const envelope = (code: ErrorCode, message: string, details: Record<string, unknown> = {}): ErrorEnvelope => ({
  error: { code, message, details },
});

/**
 * What Fastify's router refuses before any route (and so before Nest's exception filter):
 * a URL that is not valid percent-encoded UTF-8 (`%ZZ`, a lone surrogate `%ED%A0%80`) and a path
 * parameter over MAX_PATH_PARAM_LENGTH. Fastify's own replies are not docs/api.md's envelope and
 * echo the URL (a callback token is a URL); these are, with a fixed message.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const body =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? envelope('validation_failed', `a path segment is longer than ${MAX_PATH_PARAM_LENGTH} characters`, {
          reason: 'path_segment_too_long',
          max_length: MAX_PATH_PARAM_LENGTH,
        })
      : envelope('validation_failed', 'malformed URL: not valid percent-encoded UTF-8', { reason: 'bad_url' });
  void reply
    .code(400)
    .header('content-type', 'application/json; charset=utf-8')
    .header('x-request-id', request.id)
    .send(JSON.stringify(body));
}

/**
 * What Node's HTTP parser refuses (no request object exists yet): NUL or control characters in
 * the request line or a header, a malformed request line, headers over Node's 16 KiB, a request
 * that did not arrive in time. Answered with the envelope, then the connection is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message, details]: [ErrorCode, string, Record<string, unknown>] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers_too_large', 'the request line and headers are over the server limit', {}]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'the request did not arrive in time', {}]
        : ['validation_failed', 'malformed HTTP request', { reason: 'bad_request' }];
  const status = HTTP_STATUS_BY_CODE[code];
  const body = JSON.stringify(envelope(code, message, details));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; bytes that are not UTF-8 are a 400, not silently replaced by U+FFFD. */
export function decodeBody(body: string | Buffer): string {
  if (typeof body === 'string') return body;
  try {
    return UTF8.decode(body);
  } catch {
    throw new ApiError('validation_failed', 'the body is not valid UTF-8', { reason: 'invalid_utf8' });
  }
}

/**
 * Body parsing for the whole app (Nest's own parsers are off: `bodyParser: false`):
 * guarded JSON, and text/markdown + text/plain as strings (plan artifact bodies), both
 * strictly UTF-8 and without characters the store cannot hold.
 * Replies go through a serializer that writes bigint as decimal strings.
 */
export function configureBodyHandling(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  const json = (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      done(null, parseGuardedJson(decodeBody(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  const text = (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      const value = decodeBody(body);
      assertStorableText(value, 'body');
      done(null, value);
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  const options = { parseAs: 'buffer' as const, bodyLimit: MAX_BODY_BYTES };
  fastify.addContentTypeParser('application/json', options, json);
  fastify.addContentTypeParser(/^application\/[\w.-]+\+json$/, options, json);
  fastify.addContentTypeParser(['text/plain', 'text/markdown'], options, text);
  fastify.setReplySerializer(serializeReply);
}

/**
 * A reply as JSON with bigint as decimal strings. Most replies hold no bigint: they are written by
 * plain `JSON.stringify` (a replacer call per value costs more than the rest of the serialization);
 * the TypeError it throws on a bigint sends the reply through the replacer, with the same text.
 */
export function serializeReply(payload: unknown): string {
  try {
    return JSON.stringify(payload);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(payload, bigintReplacer);
  }
}
