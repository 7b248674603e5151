import { ConfigError, loadConfig } from '../config/runtime-config';

const tracingOf = (env: Record<string, string>) => loadConfig(env, '/srv/app').tracing;
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env, '/srv/app');
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('the OTEL_* variables (tracing)', () => {
  it('leave tracing off by default, with OTEL_TRACES_EXPORTER=none, and with OTEL_SDK_DISABLED=true', () => {
    expect(tracingOf({})).toBeUndefined();
    expect(tracingOf({ OTEL_SERVICE_NAME: 'runtime' })).toBeUndefined();
    expect(
      tracingOf({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318' }),
    ).toBeUndefined();
    expect(tracingOf({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
  });

  it('turn it on with an OTLP endpoint alone, or an exporter', () => {
    expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318/' })).toEqual({
      exporters: ['otlp'],
      otlpTracesUrl: 'http://jaeger:4318/v1/traces',
      serviceName: 'agent-runtime',
      resourceAttributes: {},
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      batch: {},
    });
    expect(tracingOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom' })).toMatchObject({
      exporters: ['otlp'],
      otlpTracesUrl: 'http://c:4318/custom',
    });
    expect(tracingOf({ OTEL_TRACES_EXPORTER: 'otlp,console' })?.exporters).toEqual(['otlp', 'console']);
  });

  it('read the service name, resource attributes, sampler and batch settings', () => {
    const config = tracingOf({
      OTEL_TRACES_EXPORTER: 'console',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=from-attributes,team=agents%20ops',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '1000',
      OTEL_BSP_MAX_QUEUE_SIZE: '4096',
    });
    expect(config).toMatchObject({
      serviceName: 'from-attributes',
      resourceAttributes: { 'deployment.environment': 'prod', team: 'agents ops' },
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
      batch: { scheduledDelayMillis: 1000, maxQueueSize: 4096 },
    });
    expect(tracingOf({ OTEL_TRACES_EXPORTER: 'console', OTEL_SERVICE_NAME: 'api' })?.serviceName).toBe('api');
  });

  it('refuse what this runtime cannot honour, naming the variable', () => {
    expect(problemsOf({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual([
      "OTEL_TRACES_EXPORTER must list otlp, console or none, got 'zipkin'",
    ]);
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual([
      "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf (this runtime's OTLP exporter), got 'grpc'",
    ]);
    expect(
      problemsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER_ARG: '2', OTEL_TRACES_SAMPLER: 'traceidratio' }),
    ).toEqual(["OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got '2'"]);
    expect(problemsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' })[0]).toMatch(
      /^OTEL_TRACES_SAMPLER must be one of always_on, /,
    );
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'jaeger:4318' })).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got 'jaeger:4318'",
    ]);
    expect(problemsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_MAX_QUEUE_SIZE: 'lots' })).toEqual([
      "OTEL_BSP_MAX_QUEUE_SIZE must be a whole number (at least 1), got 'lots'",
    ]);
  });
});
