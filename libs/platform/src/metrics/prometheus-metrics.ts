import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RuntimeMetrics, SnapshotOutcome } from '@app/core';

/** Latency buckets (seconds) of commands and appends: 1 ms .. 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Timer lateness (seconds): on time .. 10 min. */
const LATENESS_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 600];

let processRegistry: Registry | undefined;

/**
 * The process metrics (prom-client's collectDefaultMetrics: CPU, memory, event loop lag, GC,
 * handles), registered once per process: a test process runs many apps, each would start its
 * own event-loop monitor.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The runtime's metrics (ADR 0032, docs/api.md "Metrics"): counters and histograms updated where
 * things happen, gauges set at scrape time by the collectors (ScrapeGauges). One registry per app.
 */
export class PrometheusMetrics implements RuntimeMetrics {
  readonly registry = new Registry();

  readonly commandSeconds = new Histogram({
    name: 'agent_runtime_command_duration_seconds',
    help: 'Commands (HTTP and gRPC, through the command bus) by command and outcome (ok, or the wire error code)',
    labelNames: ['command', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly appendSeconds = new Histogram({
    name: 'agent_runtime_append_duration_seconds',
    help: 'Appends of a command to an agent stream that succeeded',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly appendConflicts = new Counter({
    name: 'agent_runtime_append_conflicts_total',
    help: 'Appends beaten by another writer (retried: the command decided again; false: a 409 or contention)',
    labelNames: ['retried'] as const,
    registers: [this.registry],
  });
  readonly decisions = new Counter({
    name: 'agent_runtime_scheduler_decisions_total',
    help: 'Scheduler decisions recorded by this process, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly evaluations = new Counter({
    name: 'agent_runtime_scheduler_evaluations_total',
    help: 'Agents the scheduler worker of this process evaluated (a decision recorded or not)',
    registers: [this.registry],
  });
  readonly leaseExpiries = new Counter({
    name: 'agent_runtime_lease_expiries_total',
    help: 'Turn and task leases that ran out and were expired by the scheduler, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly recoveries = new Counter({
    name: 'agent_runtime_recoveries_total',
    help: 'Failed work that succeeded again (scheduler_step: an agent whose evaluation had failed), by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly lateness = new Histogram({
    name: 'agent_runtime_timer_lateness_seconds',
    help: 'Timers fired by the scheduler: fire time minus due time',
    buckets: LATENESS_BUCKETS,
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'agent_runtime_refusals_total',
    help: 'Commands that wrote nothing: refused (a 4xx code), a trigger on a resolved intent, a no-op control (code no_op); by route (the operation), code and reason',
    labelNames: ['route', 'code', 'reason'] as const,
    registers: [this.registry],
  });
  readonly refusalsDropped = new Counter({
    name: 'agent_runtime_refusals_dropped_total',
    help: 'Refusals counted but not written to the audit table (its write buffer was full, or the write failed)',
    registers: [this.registry],
  });
  readonly scrapeErrors = new Counter({
    name: 'agent_runtime_scrape_errors_total',
    help: 'Scrape-time gauges that could not be read (their values are stale), by collector',
    labelNames: ['collector'] as const,
    registers: [this.registry],
  });
  readonly agentCacheLookups = new Counter({
    name: 'agent_runtime_agent_cache_lookups_total',
    help: 'Loads of an agent by the command side: its state found in the in-memory cache (hit) or folded from the store (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private cacheHits = 0;
  private cacheMisses = 0;
  readonly agentCacheHitRatio = new Gauge({
    name: 'agent_runtime_agent_cache_hit_ratio',
    help: 'Hits over lookups of the in-memory agent cache since the process started (0 before the first lookup)',
    registers: [this.registry],
    collect: () => {
      const lookups = this.cacheHits + this.cacheMisses;
      this.agentCacheHitRatio.set(lookups === 0 ? 0 : this.cacheHits / lookups);
    },
  });
  readonly agentCacheBytes = this.gauge(
    'agent_runtime_agent_cache_bytes',
    'About how many bytes the in-memory agent cache holds (the JSON size of its states; AGENT_CACHE_MAX_BYTES bounds it)',
  );
  readonly agentCacheEntries = this.gauge('agent_runtime_agent_cache_entries', 'Agents in the in-memory agent cache');
  readonly agentSnapshots = new Counter({
    name: 'agent_runtime_agent_snapshots_total',
    help: 'Agent snapshots of the command side, by outcome: written, failed, superseded (a newer one of the agent replaced it while it waited) or skipped (the writer queue was full)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  /** Gauges set at scrape time (ScrapeGauges). */
  readonly projectionLagEvents = this.gauge(
    'agent_runtime_projection_lag_events',
    'Store positions between the projection checkpoint and the head (on the Postgres store: events)',
    ['projection'],
  );
  readonly projectionLagSeconds = this.gauge(
    'agent_runtime_projection_lag_seconds',
    'Seconds the projection checkpoint has not moved while events wait (0 when caught up)',
    ['projection'],
  );
  readonly parkedAgents = this.gauge(
    'agent_runtime_projection_parked_agents',
    'Agents a poison event parked, by projection',
    ['projection'],
  );
  readonly deadLetters = this.gauge(
    'agent_runtime_dead_letters_open',
    'Open projection dead letters (poison events), by projection',
    ['projection'],
  );
  readonly agents = this.gauge('agent_runtime_agents', 'Agents by posture (read models)', ['posture']);
  readonly queuedMessages = this.gauge('agent_runtime_queued_messages', 'Messages queued for agents (read models)');
  readonly openWorkItems = this.gauge('agent_runtime_open_work_items', 'Open work items of all agents (read models)');
  readonly strandedItems = this.gauge(
    'agent_runtime_stranded_items',
    'Stranded work of all agents at scrape time, by kind (GET /v1/stranded, ADR 0036)',
    ['kind'],
  );

  appendObserved(seconds: number): void {
    this.appendSeconds.observe(seconds);
  }
  appendConflict(retried: boolean): void {
    this.appendConflicts.inc({ retried: retried ? 'true' : 'false' });
  }
  schedulerDecision(kind: string): void {
    this.decisions.inc({ kind });
  }
  schedulerEvaluated(): void {
    this.evaluations.inc();
  }
  leaseExpired(kind: string): void {
    this.leaseExpiries.inc({ kind });
  }
  recovered(kind: string): void {
    this.recoveries.inc({ kind });
  }
  timerLateness(seconds: number): void {
    this.lateness.observe(seconds);
  }
  agentCacheLookup(hit: boolean): void {
    if (hit) this.cacheHits += 1;
    else this.cacheMisses += 1;
    this.agentCacheLookups.inc({ result: hit ? 'hit' : 'miss' });
  }
  agentSnapshot(outcome: SnapshotOutcome): void {
    this.agentSnapshots.inc({ outcome });
  }
  agentCacheSize(bytes: number, entries: number): void {
    this.agentCacheBytes.set(bytes);
    this.agentCacheEntries.set(entries);
  }
  commandObserved(command: string, outcome: string, seconds: number): void {
    this.commandSeconds.observe({ command, outcome }, seconds);
  }
  refused(route: string, code: string, reason: string): void {
    this.refusals.inc({ route, code, reason });
  }

  /** The Prometheus text exposition: this app's metrics and the process's. */
  async exposition(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${process}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private gauge<L extends string>(name: string, help: string, labelNames: L[] = []): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }
}
