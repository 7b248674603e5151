import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { Logger } from 'pino';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '@app/application';
import { CLOCK, type Clock, LOGGER, NO_TRACING, TRACING, type Tracing } from '@app/core';
import { OWNERSHIP_SETTINGS, type OwnershipSettings } from '@app/read-models';
import { clockProvider } from './clock/clock';
import { configProvider, RUNTIME_CONFIG } from './config/config.providers';
import type { RuntimeConfig } from './config/runtime-config';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { createValidationPipe } from './http/validation';
import { createLogger } from './logging/logger';
import { NEST_LOGGER, PinoNestLogger } from './logging/nest-logger.adapter';
import { TracingLifecycle } from './tracing/tracing-sdk';

export interface PlatformOptions {
  config: RuntimeConfig;
  /** The composition root's logger (it logs before Nest starts); default a new one. */
  logger?: Logger;
  /** Default SystemClock; tests pass a FixedClock. */
  clock?: Clock;
  /** The composition root's Tracing (startTracing); default NO_TRACING. */
  tracing?: Tracing;
}

/**
 * Global providers every app uses: RUNTIME_CONFIG (and the part of it the application reads,
 * APPLICATION_SETTINGS, and OWNERSHIP_SETTINGS for the replicated roles), LOGGER (pino), NEST_LOGGER, CLOCK, TRACING, plus the one exception filter and
 * the one ValidationPipe.
 */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      providers: [
        configProvider(options.config),
        {
          provide: APPLICATION_SETTINGS,
          inject: [RUNTIME_CONFIG],
          useFactory: (config: RuntimeConfig): ApplicationSettings => config,
        },
        {
          provide: OWNERSHIP_SETTINGS,
          inject: [RUNTIME_CONFIG],
          // The embedded Postgres belongs to this process alone: leases found in it are a crashed run's.
          useFactory: (config: RuntimeConfig): OwnershipSettings => ({
            ...config,
            soleProcess: config.databaseUrl === null,
          }),
        },
        {
          provide: LOGGER,
          inject: [RUNTIME_CONFIG],
          useFactory: (config: RuntimeConfig): Logger => options.logger ?? createLogger(config),
        },
        { provide: NEST_LOGGER, inject: [LOGGER], useFactory: (logger: Logger) => new PinoNestLogger(logger) },
        clockProvider(options.clock),
        { provide: TRACING, useValue: options.tracing ?? NO_TRACING },
        TracingLifecycle,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
      exports: [RUNTIME_CONFIG, APPLICATION_SETTINGS, OWNERSHIP_SETTINGS, LOGGER, NEST_LOGGER, CLOCK, TRACING],
    };
  }
}
