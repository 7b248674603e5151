import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { bigintReplacer } from '../errors/json-safe';
import { requestIdFor } from '../logging/request-logging';
import { parseGuardedJson } from './json-guard';

/** Request bodies over this are 413 before parsing (API.md, Limits). */
export const MAX_BODY_BYTES = 1024 * 1024;

export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: MAX_BODY_BYTES,
    // Ids may be 128 characters and callback tokens ~150 (Fastify's default is 100 -> 414).
    maxParamLength: 600,
    genReqId: requestIdFor,
    logger: false,
    forceCloseConnections: 'idle',
  });
}

/**
 * Body parsing for the whole app (Nest's own parsers are off: `bodyParser: false`):
 * guarded JSON, and text/markdown + text/plain as strings (plan artifact bodies).
 * Replies go through a serializer that writes bigint as decimal strings.
 */
export function configureBodyHandling(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  const json = (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
    try {
      done(null, parseGuardedJson(body.toString()));
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  const text = (_request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => done(null, body.toString());
  const options = { parseAs: 'string' as const, bodyLimit: MAX_BODY_BYTES };
  fastify.addContentTypeParser('application/json', options, json);
  fastify.addContentTypeParser(/^application\/[\w.-]+\+json$/, options, json);
  fastify.addContentTypeParser(['text/plain', 'text/markdown'], options, text);
  fastify.setReplySerializer((payload) => JSON.stringify(payload, bigintReplacer));
}
