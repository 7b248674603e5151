import type { Pool } from 'pg';
import type { EventStore } from '@app/event-store';
import type { StrandedThresholds } from '@app/domain';
import { DEFAULT_READY_MAX_LAG_SECONDS, fleetGauges, projectionReadiness, StrandedQueries } from '@app/read-models';
import type { Logger } from '@app/core';
import type { PrometheusMetrics } from './prometheus-metrics';

/** A scrape-time reading: sets some gauges from a cheap query. */
export type ScrapeCollector = (metrics: PrometheusMetrics) => Promise<void>;

/** What one collector may take at most: a slow query leaves its gauges stale, never hangs the scrape. */
export const SCRAPE_COLLECTOR_TIMEOUT_MS = 2_000;

/**
 * The gauges that need a query, computed when Prometheus scrapes (never per event): projection
 * lag from the checkpoints and the store's head, the fleet from the read models. Each collector
 * runs on its own: one that fails or times out is counted in agent_runtime_scrape_errors_total
 * and its gauges keep their last values.
 */
export function scrapeCollectors(deps: {
  store: EventStore;
  pool: Pool;
  maxLagSeconds?: number;
  /** The clock and delays the stranded-work gauge compares with (absent: the gauge is not set). */
  stranded?: { now: () => string; thresholds: StrandedThresholds };
}): Record<string, ScrapeCollector> {
  const stranded = deps.stranded;
  const strandedQueries = new StrandedQueries(deps.pool);
  return {
    projections: async (metrics) => {
      const head = await deps.store.headPosition();
      const projections = await projectionReadiness(
        deps.pool,
        head,
        deps.maxLagSeconds ?? DEFAULT_READY_MAX_LAG_SECONDS,
      );
      for (const p of projections) {
        const behind = p.head === null ? 0n : BigInt(p.head) - BigInt(p.checkpoint);
        const labels = { projection: p.projection };
        metrics.projectionLagEvents.set(labels, behind > 0n ? Number(behind) : 0);
        metrics.projectionLagSeconds.set(labels, p.caught_up ? 0 : p.idle_seconds);
        metrics.parkedAgents.set(labels, p.parked_agents);
      }
    },
    fleet: async (metrics) => {
      const fleet = await fleetGauges(deps.pool);
      metrics.agents.reset();
      for (const [posture, count] of Object.entries(fleet.agentsByPosture)) metrics.agents.set({ posture }, count);
      metrics.queuedMessages.set(fleet.queuedMessages);
      metrics.openWorkItems.set(fleet.openWorkItems);
      metrics.deadLetters.reset();
      for (const [projection, open] of Object.entries(fleet.openDeadLetters))
        metrics.deadLetters.set({ projection }, open);
    },
    // Stranded items by kind (issue 19 item 4): one query over the agents with a watch begun.
    ...(stranded && {
      stranded: async (metrics: PrometheusMetrics) => {
        const counts = await strandedQueries.countByKind(stranded.now(), stranded.thresholds);
        for (const [kind, count] of Object.entries(counts)) metrics.strandedItems.set({ kind }, count);
      },
    }),
  };
}

/** Runs every collector at once before the exposition is rendered. */
export async function collectScrapeGauges(
  metrics: PrometheusMetrics,
  collectors: Record<string, ScrapeCollector>,
  logger: Logger,
  timeoutMs = SCRAPE_COLLECTOR_TIMEOUT_MS,
): Promise<void> {
  await Promise.all(
    Object.entries(collectors).map(async ([name, collect]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          collect(metrics),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } catch (error) {
        metrics.scrapeErrors.inc({ collector: name });
        logger.warn({ err: error, collector: name }, 'metrics: a scrape-time gauge could not be read');
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
