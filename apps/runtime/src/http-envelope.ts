import { createParamDecorator, type ExecutionContext, type PipeTransform, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '@app/core';
import { ID_PATTERN } from '@app/domain';
import type { Caller, CommandEnvelope } from '@app/application';
import { requireCommandKey } from './command-key';

/** An id in a path that does not match docs/api.md's id pattern is 400. */
@Injectable()
export class IdParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
      throw new ApiError('validation_failed', 'path id does not match the id pattern', { pattern: ID_PATTERN.source });
    }
    return value;
  }
}

export interface HttpCommandContext {
  caller: Caller;
  idempotencyKey?: string;
  correlationId?: string;
}

/** Caller, `Idempotency-Key` and `X-Correlation-Id` of a command request. */
export const CallerHeaders = createParamDecorator((_data: unknown, context: ExecutionContext): HttpCommandContext => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const caller = request.caller;
  if (!caller) throw new ApiError('unauthorized', 'a bearer token is required');
  return {
    caller,
    idempotencyKey: header(request, 'idempotency-key'),
    correlationId: header(request, 'x-correlation-id'),
  };
});

/** Aborts when the client goes away before its reply is sent (a long poll stops waiting). */
export const ClientGone = createParamDecorator((_data: unknown, context: ExecutionContext): AbortSignal => {
  const response = context.switchToHttp().getResponse<FastifyReply>().raw;
  const gone = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  return gone.signal;
});

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (value === undefined) return undefined;
  return requireCommandKey(name, value, { header: name });
}

export function envelopeOf(
  agentId: string,
  context: HttpCommandContext,
  expectedRevision?: number | string,
): CommandEnvelope {
  return {
    agentId,
    caller: context.caller,
    idempotencyKey: context.idempotencyKey,
    correlationId: context.correlationId,
    expectedRevision: expectedRevision === undefined ? undefined : BigInt(expectedRevision),
  };
}
