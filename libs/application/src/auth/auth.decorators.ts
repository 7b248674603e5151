import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Caller } from './request-authorizer';

/** The authenticated caller of this request (null only on a @Public() route without a token). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller | null => {
  return context.switchToHttp().getRequest<FastifyRequest>().caller ?? null;
});
