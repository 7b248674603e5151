import { Global, Inject, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { Pool } from 'pg';
import { RefusalLog, REFUSAL_LOG, strandedThresholds } from '@app/application';
import { CLOCK, type Clock, LOGGER, type Logger, RUNTIME_METRICS } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { POSTGRES_POOL } from '@app/read-models';
import { RUNTIME_CONFIG } from '../config/config.providers';
import type { RuntimeConfig } from '../config/runtime-config';
import { CommandMetrics } from './command-metrics';
import { metricsExposure } from './metrics-access';
import { METRICS_EXPOSURE, MetricsController } from './metrics.controller';
import { METRICS_SCRAPE, type MetricsScrape } from './metrics-scrape';
import { MetricsServer } from './metrics-server';
import { PrometheusMetrics } from './prometheus-metrics';
import { collectScrapeGauges, scrapeCollectors } from './scrape-gauges';

/** Writes the refusals still buffered before the pool closes (InfrastructureLifecycle ends it later). */
@Injectable()
export class RefusalLogLifecycle implements OnModuleDestroy {
  constructor(@Inject(REFUSAL_LOG) private readonly log: RefusalLog) {}

  async onModuleDestroy(): Promise<void> {
    await this.log.drained();
  }
}

/**
 * GET /metrics (ADR 0032) in every role: RUNTIME_METRICS (the counters the libraries report to),
 * the command bus observer, the refusals audit (REFUSAL_LOG), the scrape, and METRICS_PORT's
 * listener. Global: the application's providers inject RUNTIME_METRICS where they count.
 * Needs the global InfrastructureModule (EVENT_STORE, POSTGRES_POOL).
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [MetricsController],
  providers: [
    { provide: RUNTIME_METRICS, useFactory: () => new PrometheusMetrics() },
    {
      provide: REFUSAL_LOG,
      inject: [POSTGRES_POOL, RUNTIME_CONFIG, LOGGER, RUNTIME_METRICS],
      useFactory: (pool: Pool, config: RuntimeConfig, logger: Logger, metrics: PrometheusMetrics) =>
        new RefusalLog(pool, {
          retainRows: config.refusalsRetainRows,
          onDropped: () => metrics.refusalsDropped.inc(),
          onError: (error, lost) => {
            metrics.refusalsDropped.inc(lost);
            logger.warn({ err: error, lost }, 'refusals audit: a batch was not written');
          },
        }),
    },
    {
      provide: METRICS_EXPOSURE,
      inject: [RUNTIME_CONFIG],
      useFactory: (config: RuntimeConfig) => metricsExposure(config),
    },
    {
      provide: METRICS_SCRAPE,
      inject: [RUNTIME_METRICS, EVENT_STORE, POSTGRES_POOL, RUNTIME_CONFIG, LOGGER, CLOCK],
      useFactory: (
        metrics: PrometheusMetrics,
        store: EventStore,
        pool: Pool,
        config: RuntimeConfig,
        logger: Logger,
        clock: Clock,
      ): MetricsScrape => {
        const collectors = scrapeCollectors({
          store,
          pool,
          maxLagSeconds: config.readyMaxLagSeconds,
          stranded: { now: () => clock.now().toISOString(), thresholds: strandedThresholds(config) },
        });
        return async () => {
          await collectScrapeGauges(metrics, collectors, logger);
          return metrics.exposition();
        };
      },
    },
    CommandMetrics,
    MetricsServer,
    RefusalLogLifecycle,
  ],
  exports: [RUNTIME_METRICS, REFUSAL_LOG, METRICS_SCRAPE, MetricsServer],
})
export class MetricsModule {}
