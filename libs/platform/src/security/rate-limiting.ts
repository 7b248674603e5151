import { Global, Inject, Injectable, Module, type OnModuleInit, type Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { REQUEST_AUTHORIZER, type RequestAuthorizer } from '@app/application';
import { LOGGER, type Logger } from '@app/core';
import { registerRateLimiting } from '../http/rate-limit-hook';
import { createRateLimiter, RATE_LIMITER, rateLimitFromEnv, type RateLimiter } from './rate-limiter';

/**
 * One limiter per process, shared by the HTTP hook and the gRPC host: a token's requests count
 * together whichever transport they use. RUNTIME_RATE_LIMIT is read here (default 200/2); an
 * invalid value stops the start-up naming the variable.
 */
export const rateLimiterProvider: Provider = {
  provide: RATE_LIMITER,
  inject: [LOGGER],
  useFactory: (logger: Logger): RateLimiter => {
    const policy = rateLimitFromEnv(process.env);
    logger
      .child({ component: 'auth' })
      .info({ rate_limit: policy ?? 'off' }, policy ? 'rate limit per token' : 'rate limiting is off');
    return createRateLimiter(policy);
  },
};

/** Adds the limiter's `onRequest` hook to Fastify before the routes are readied. */
@Injectable()
export class HttpRateLimiting implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(REQUEST_AUTHORIZER) private readonly authorizer: RequestAuthorizer,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify && typeof fastify.addHook === 'function')
      registerRateLimiting(fastify, { limiter: this.limiter, authorizer: this.authorizer });
  }
}

/** The per-token rate limit of both transports (RATE_LIMITER, and the HTTP hook). Needs REQUEST_AUTHORIZER (AuthModule). */
@Global()
@Module({ providers: [rateLimiterProvider, HttpRateLimiting], exports: [RATE_LIMITER] })
export class RateLimitingModule {}
