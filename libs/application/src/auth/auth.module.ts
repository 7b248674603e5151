import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { REQUEST_AUTHORIZER } from './request-authorizer';
import { ApiAuthGuard } from './auth.guard';
import {
  ApiTokensReloader,
  privateChildrenProvider,
  requestAuthorizerProvider,
  tokenAuthenticatorProvider,
} from './auth.providers';
import { PRIVATE_CHILDREN } from './private-children';

/**
 * Bearer-token auth for HTTP (global guard) and gRPC (REQUEST_AUTHORIZER for the gRPC host
 * and the platform's per-token rate limit). Needs APPLICATION_SETTINGS and LOGGER.
 */
@Global()
@Module({
  providers: [
    tokenAuthenticatorProvider,
    privateChildrenProvider,
    requestAuthorizerProvider,
    ApiTokensReloader,
    { provide: APP_GUARD, useClass: ApiAuthGuard },
  ],
  exports: [REQUEST_AUTHORIZER, PRIVATE_CHILDREN],
})
export class AuthModule {}
