import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { NO_TRACING, TRACING, type Tracing } from '@app/core';
import { OtelTracing } from './otel-tracing';
import type { TracingConfig } from './tracing-config';

export interface TracingStartOptions {
  /** This process's RUNTIME_ROLE, a resource attribute (`agent_runtime.role`). */
  role: string;
  version: string;
  /**
   * Tests: spans go to this exporter, synchronously, instead of the configured exporters
   * (tracing still needs the OTEL_* variables to be on).
   */
  exporter?: SpanExporter;
}

/** The process's Tracing: NO_TRACING when the OTEL_* variables leave it off (no SDK is created at all). */
export function startTracing(config: TracingConfig | null | undefined, options: TracingStartOptions): Tracing {
  if (!config) return NO_TRACING;
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...config.resourceAttributes,
      'service.name': config.serviceName,
      'service.version': options.version,
      'agent_runtime.role': options.role,
    }),
  );
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(config.sampler),
    spanProcessors: processorsOf(config, options.exporter),
  });
  return new OtelTracing(provider, options.version);
}

function processorsOf(config: TracingConfig, testExporter: SpanExporter | undefined): SpanProcessor[] {
  if (testExporter) return [new SimpleSpanProcessor({ exporter: testExporter })];
  return config.exporters.map((name) =>
    name === 'console'
      ? new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() })
      : // The URL from the runtime's environment; headers, timeout, compression... the exporter reads itself.
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter(config.otlpTracesUrl ? { url: config.otlpTracesUrl } : {}),
          ...definedOnly(config.batch),
        }),
  );
}

function samplerOf({ name, ratio }: TracingConfig['sampler']): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** How long a shutdown waits for the last spans to be exported (an unreachable collector must not hold it up). */
const SHUTDOWN_EXPORT_MS = 5_000;

/** Exports the spans still pending when the app closes (SIGTERM included: Nest's shutdown hooks). */
@Injectable()
export class TracingLifecycle implements OnApplicationShutdown {
  constructor(@Inject(TRACING) private readonly tracing: Tracing) {}

  async onApplicationShutdown(): Promise<void> {
    if (!(this.tracing instanceof OtelTracing)) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.tracing.shutdown().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_EXPORT_MS))),
    ]);
    clearTimeout(timer);
  }
}
