import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { classifyError, toEnvelope } from '../errors/classify-error';
import { LOGGER, type Logger } from '@app/core';
import { RETRY_AFTER_CODES } from '../grpc/grpc-status';

/** The one exception filter: every error leaves as docs/api.md's envelope. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const classified = classifyError(exception);
    if (classified.status >= 500) {
      this.logger.error({ err: exception, req_id: request?.id, code: classified.code }, 'request failed');
    }
    if (reply.sent || reply.raw?.headersSent) return;
    const adapter = this.adapterHost.httpAdapter;
    if (classified.code === 'unauthorized') adapter.setHeader(reply, 'www-authenticate', 'Bearer');
    const retryAfter = classified.details.retry_after_seconds;
    if (RETRY_AFTER_CODES.has(classified.code) && typeof retryAfter === 'number')
      adapter.setHeader(reply, 'retry-after', String(retryAfter));
    adapter.setHeader(reply, 'content-type', 'application/json; charset=utf-8');
    adapter.reply(reply, toEnvelope(classified), classified.status);
  }
}
