import { Global, Inject, Injectable, Module, type OnModuleInit, type Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { REQUEST_AUTHORIZER, type RequestAuthorizer } from '@app/application';
import { LOGGER, type Logger } from '@app/core';
import { registerRateLimiting } from '../http/rate-limit-hook';
import { createRateLimiter, RATE_LIMITER, type RateLimiter } from './rate-limiter';
import { registerLoginThrottle } from '../http/login-throttle-hook';
import { RUNTIME_CONFIG } from '../config/config.providers';
import type { RuntimeConfig } from '../config/runtime-config';
import { LoginThrottle } from './login-throttle';
import { DEFAULT_LOGIN_THROTTLE, parseLoginThrottle } from './login-throttle-policy';

/** The failed-login throttle of both transports (RUNTIME_LOGIN_THROTTLE); null when off. */
export const LOGIN_THROTTLE = Symbol('LOGIN_THROTTLE');

export const loginThrottleProvider: Provider = {
  provide: LOGIN_THROTTLE,
  inject: [RUNTIME_CONFIG, LOGGER],
  useFactory: (config: RuntimeConfig, logger: Logger): LoginThrottle | null => {
    const policy =
      config.loginThrottle === undefined ? parseLoginThrottle(DEFAULT_LOGIN_THROTTLE) : config.loginThrottle;
    logger
      .child({ component: 'auth' })
      .info(
        { login_throttle: policy ?? 'off', trusted_proxies: config.trustedProxies ?? [] },
        policy ? 'failed logins throttled per client address' : 'the failed-login throttle is off',
      );
    return policy ? new LoginThrottle(policy) : null;
  },
};

/**
 * One limiter per process, shared by the HTTP hook and the gRPC host: a token's requests count
 * together whichever transport they use. Its policy is the configuration's RUNTIME_RATE_LIMIT
 * (default 200/2; loadConfig refuses an invalid value, naming the variable, with the others).
 */
export const rateLimiterProvider: Provider = {
  provide: RATE_LIMITER,
  inject: [RUNTIME_CONFIG, LOGGER],
  useFactory: (config: RuntimeConfig, logger: Logger): RateLimiter => {
    const policy = config.rateLimit;
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
    @Inject(LOGIN_THROTTLE) private readonly throttle: LoginThrottle | null,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || typeof fastify.addHook !== 'function') return;
    if (this.throttle) registerLoginThrottle(fastify, this.throttle);
    registerRateLimiting(fastify, { limiter: this.limiter, authorizer: this.authorizer });
  }
}

/** The per-token rate limit and the failed-login throttle of both transports (and their HTTP hooks). Needs REQUEST_AUTHORIZER (AuthModule). */
@Global()
@Module({
  providers: [rateLimiterProvider, loginThrottleProvider, HttpRateLimiting],
  exports: [RATE_LIMITER, LOGIN_THROTTLE],
})
export class RateLimitingModule {}
