import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { REQUEST_AUTHORIZER } from './request-authorizer';
import { ApiAuthGuard } from './auth.guard';
import { ApiTokensReloader, requestAuthorizerProvider, tokenAuthenticatorProvider } from './auth.providers';

/**
 * Bearer-token auth for HTTP (global guard) and gRPC (REQUEST_AUTHORIZER for the gRPC host
 * and the platform's per-token rate limit). Needs APPLICATION_SETTINGS and LOGGER.
 */
@Global()
@Module({
  providers: [
    tokenAuthenticatorProvider,
    requestAuthorizerProvider,
    ApiTokensReloader,
    { provide: APP_GUARD, useClass: ApiAuthGuard },
  ],
  exports: [REQUEST_AUTHORIZER],
})
export class AuthModule {}
