import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RATE_LIMITER, REQUEST_AUTHORIZER } from '@app/platform';
import { ApiAuthGuard } from './auth.guard';
import { requestAuthorizerProvider } from './auth.providers';
import { HttpRateLimiting, rateLimiterProvider } from './rate-limiting';

/**
 * Bearer-token auth for HTTP (global guard) and gRPC (REQUEST_AUTHORIZER for the gRPC host),
 * and the per-token rate limit of both (RATE_LIMITER; the HTTP hook is added here).
 */
@Global()
@Module({
  providers: [requestAuthorizerProvider, rateLimiterProvider, HttpRateLimiting, { provide: APP_GUARD, useClass: ApiAuthGuard }],
  exports: [REQUEST_AUTHORIZER, RATE_LIMITER],
})
export class AuthModule {}
