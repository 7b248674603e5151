import type { DiscoveryService } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import type { Refusal, RefusalLog, RequestAuthorizer } from '@app/application';
import { ApiError, type Logger } from '@app/core';
import { CommandMetrics, routeOf } from './command-metrics';
import { admitScrape, metricsExposure } from './metrics-access';
import { PrometheusMetrics } from './prometheus-metrics';
import { collectScrapeGauges } from './scrape-gauges';

const clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };
class ControlCommand {
  constructor(readonly envelope: { agentId: string; caller: { tokenName: string } }) {}
}
class CallbackCommand {}
const envelope = { agentId: 'agent-a', caller: { tokenName: 'ops:operator' } };

async function valueOf(metrics: PrometheusMetrics, name: string, labels: Record<string, string> = {}) {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { value: number; labels: Record<string, unknown>; metricName?: string }[];
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}

describe('metricsExposure and admitScrape', () => {
  const authorizer: RequestAuthorizer = {
    authorize: (header) => {
      if (header !== 'Bearer admin') throw new ApiError('forbidden', 'admin only');
      return { tokenName: 'admin', agents: [], admin: true };
    },
  };

  it('serves its own port when METRICS_PORT is set (the main port answers 404), whatever the token', () => {
    const exposure = metricsExposure({ metricsPort: 9464, metricsToken: 'x'.repeat(20) });
    expect(exposure).toEqual({ kind: 'own_port' });
    expect(() => admitScrape(exposure, 'Bearer admin', authorizer)).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('asks for METRICS_TOKEN when set, and nothing else', () => {
    const exposure = metricsExposure({ metricsToken: 'scrape-token-0123456789' });
    expect(() => admitScrape(exposure, 'Bearer scrape-token-0123456789', authorizer)).not.toThrow();
    for (const header of [undefined, 'Bearer admin', 'Bearer scrape-token-012345678', 'scrape-token-0123456789'])
      expect(() => admitScrape(exposure, header, authorizer)).toThrow(
        expect.objectContaining({ code: 'unauthorized' }),
      );
  });

  it('asks the authorizer for an admin token otherwise', () => {
    const exposure = metricsExposure({});
    expect(exposure).toEqual({ kind: 'admin' });
    expect(() => admitScrape(exposure, 'Bearer admin', authorizer)).not.toThrow();
    expect(() => admitScrape(exposure, 'Bearer other', authorizer)).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    );
  });
});

describe('CommandMetrics', () => {
  const setup = () => {
    const metrics = new PrometheusMetrics();
    const recorded: Refusal[] = [];
    const log = { record: (r: Refusal) => recorded.push(r) } as unknown as RefusalLog;
    const bus = new CommandBus(undefined as never);
    const discovery = { getProviders: () => [{ instance: bus }, { instance: bus }, { instance: {} }] };
    const observer = new CommandMetrics(discovery as unknown as DiscoveryService, metrics, log, clock);
    return { metrics, recorded, observer, bus };
  };

  it('names the route after the command class', () => {
    expect(routeOf(new ControlCommand(envelope))).toBe('Control');
    expect(routeOf(new CallbackCommand())).toBe('Callback');
  });

  it('times a command by outcome, and writes nothing to the audit for a command that changed something', async () => {
    const { metrics, recorded, observer } = setup();
    await observer.observe(new ControlCommand(envelope), Promise.resolve({ changed: true }));
    const json = await metrics.registry.getSingleMetric('agent_runtime_command_duration_seconds')!.get();
    const count = json.values.find(
      (v) => (v as { metricName?: string }).metricName === 'agent_runtime_command_duration_seconds_count',
    );
    expect(count).toMatchObject({ value: 1, labels: { command: 'Control', outcome: 'ok' } });
    expect(recorded).toEqual([]);
  });

  it('counts and audits a no-op control, with the caller and the agent', async () => {
    const { metrics, recorded, observer } = setup();
    await observer.observe(new ControlCommand(envelope), Promise.resolve({ changed: false }));
    expect(await valueOf(metrics, 'agent_runtime_refusals_total', { route: 'Control', code: 'no_op' })).toBe(1);
    expect(recorded).toEqual([
      {
        actor: 'ops:operator',
        route: 'Control',
        agent_id: 'agent-a',
        code: 'no_op',
        reason: 'no_op',
        message: 'changed nothing',
        at: '2026-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('counts and audits a refusal, rethrowing it; a 5xx is timed but is no refusal', async () => {
    const { metrics, recorded, observer } = setup();
    const refused = new ApiError('conflict', 'waiting intent i-1 is resolved', { status: 'resolved' });
    await expect(observer.observe(new CallbackCommand(), Promise.reject(refused))).rejects.toBe(refused);
    await expect(observer.observe(new CallbackCommand(), Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(
      await valueOf(metrics, 'agent_runtime_refusals_total', {
        route: 'Callback',
        code: 'conflict',
        reason: 'resolved',
      }),
    ).toBe(1);
    expect(await valueOf(metrics, 'agent_runtime_refusals_total')).toBe(1);
    expect(recorded).toMatchObject([{ actor: 'callback', agent_id: null, route: 'Callback', code: 'conflict' }]);
  });

  it('observes every CommandBus instance of the app once', async () => {
    const { metrics, observer, bus } = setup();
    const original = jest.fn(async () => ({ changed: true }));
    bus.execute = original as unknown as CommandBus['execute'];
    observer.onModuleInit();
    await bus.execute(new ControlCommand(envelope) as never);
    expect(original).toHaveBeenCalledTimes(1);
    const text = await metrics.exposition();
    expect(text).toContain('agent_runtime_command_duration_seconds_count{command="Control",outcome="ok"} 1');
  });
});

describe('collectScrapeGauges', () => {
  it('counts a collector that fails and keeps the others', async () => {
    const metrics = new PrometheusMetrics();
    const warnings: unknown[] = [];
    const logger = { warn: (fields: unknown) => warnings.push(fields) } as unknown as Logger;
    await collectScrapeGauges(
      metrics,
      {
        broken: async () => Promise.reject(new Error('no database')),
        hung: () => new Promise<void>(() => undefined),
        fine: async (m) => m.queuedMessages.set(7),
      },
      logger,
      20,
    );
    expect(await valueOf(metrics, 'agent_runtime_scrape_errors_total', { collector: 'broken' })).toBe(1);
    expect(await valueOf(metrics, 'agent_runtime_scrape_errors_total', { collector: 'hung' })).toBe(1);
    expect(await valueOf(metrics, 'agent_runtime_queued_messages')).toBe(7);
    expect(warnings).toHaveLength(2);
  });

  it('renders the runtime families and the process metrics in the text format', async () => {
    const metrics = new PrometheusMetrics();
    metrics.schedulerDecision('Sleep');
    metrics.leaseExpired('turn');
    metrics.timerLateness(1.5);
    metrics.appendConflict(true);
    metrics.schedulerEvaluated();
    metrics.schedulerEvaluated();
    for (const hit of [true, true, true, false]) metrics.agentCacheLookup(hit);
    metrics.agentSnapshot('written');
    metrics.agentSnapshot('written');
    metrics.agentSnapshot('skipped');
    const text = await metrics.exposition();
    expect(text).toContain('agent_runtime_scheduler_decisions_total{kind="Sleep"} 1');
    expect(text).toContain('agent_runtime_lease_expiries_total{kind="turn"} 1');
    expect(text).toContain('agent_runtime_timer_lateness_seconds_bucket{le="2"} 1');
    expect(text).toContain('agent_runtime_append_conflicts_total{retried="true"} 1');
    expect(text).toContain('agent_runtime_scheduler_evaluations_total 2');
    expect(text).toContain('agent_runtime_agent_cache_lookups_total{result="hit"} 3');
    expect(text).toContain('agent_runtime_agent_cache_hit_ratio 0.75');
    expect(text).toContain('agent_runtime_agent_snapshots_total{outcome="written"} 2');
    expect(text).toContain('agent_runtime_agent_snapshots_total{outcome="skipped"} 1');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});
