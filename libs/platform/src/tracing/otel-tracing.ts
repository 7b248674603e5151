import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanAttributes, TraceContextFields, TracedEvent, Tracing } from '@app/core';

/**
 * The runtime's Tracing on the OpenTelemetry SDK (docs/decisions/0033). It owns its provider,
 * its context manager (AsyncLocalStorage) and its W3C propagator instead of registering them
 * as the process's globals: two runtimes in one process (the tests) trace independently.
 */
export class OtelTracing implements Tracing {
  readonly enabled = true;
  private readonly contexts = new AsyncLocalStorageContextManager().enable();
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly tracer: Tracer;

  constructor(
    private readonly provider: TracerProvider,
    version: string,
  ) {
    this.tracer = provider.getTracer('agent-runtime', version);
  }

  /** The context of the running code (ROOT_CONTEXT outside any span). */
  active(): Context {
    return this.contexts.active();
  }

  /** Runs `fn` with `context` active (and everything it starts asynchronously). */
  with<T>(context: Context, fn: () => T): T {
    return this.contexts.with(context, fn);
  }

  /** The trace context of incoming headers or gRPC metadata (ROOT_CONTEXT when there is none or it is malformed). */
  extract<C>(carrier: C, getter: TextMapGetter<C>): Context {
    return this.propagator.extract(ROOT_CONTEXT, carrier, getter);
  }

  /** Starts a span under `parent`; the caller ends it. */
  start(name: string, kind: SpanKind, parent: Context, attributes: Attributes = {}, links: Link[] = []): Span {
    return this.tracer.startSpan(name, { kind, attributes, links }, parent);
  }

  inSpan<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T> {
    const parent = this.active();
    return this.run(this.start(name, SpanKind.INTERNAL, parent, attributes), parent, fn);
  }

  currentContext(): TraceContextFields {
    const carrier: Record<string, string> = {};
    this.propagator.inject(this.active(), carrier, defaultTextMapSetter);
    return carrier;
  }

  async forEvents<T>(name: string, events: readonly TracedEvent[], fn: () => Promise<T>): Promise<T> {
    const spans: Span[] = [];
    for (const event of events) {
      const stored = this.storedContext(event.metadata);
      if (stored) spans.push(this.start(name, SpanKind.CONSUMER, stored, event.attributes));
    }
    try {
      return await fn();
    } catch (error) {
      for (const span of spans) failed(span, error);
      throw error;
    } finally {
      for (const span of spans) span.end();
    }
  }

  causedBy<T>(
    name: string,
    events: readonly TracedEvent[],
    attributes: SpanAttributes,
    fn: (annotate: (attributes: SpanAttributes) => void) => Promise<T>,
  ): Promise<T> {
    const stored = events.map((event) => this.storedContext(event.metadata)).filter((c) => c !== undefined);
    const parent = stored.pop() ?? ROOT_CONTEXT;
    const links = stored.map((context) => ({ context: trace.getSpanContext(context)! }));
    const span = this.start(name, SpanKind.INTERNAL, parent, attributes, links);
    return this.run(span, parent, () => fn((more) => span.setAttributes(more)));
  }

  /** Exports what is pending and stops the provider (the app's close). */
  async shutdown(): Promise<void> {
    try {
      await this.provider.shutdown();
    } finally {
      this.contexts.disable();
    }
  }

  /** The trace context an event's metadata holds, if it holds a valid one. */
  private storedContext(metadata: TracedEvent['metadata']): Context | undefined {
    if (typeof metadata?.traceparent !== 'string') return undefined;
    const context = this.extract(metadata, defaultTextMapGetter);
    const spanContext = trace.getSpanContext(context);
    return spanContext && isSpanContextValid(spanContext) ? context : undefined;
  }

  private async run<T>(span: Span, parent: Context, fn: () => Promise<T>): Promise<T> {
    try {
      return await this.contexts.with(trace.setSpan(parent, span), fn);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }
}

/** Marks a span as failed by `error` (its class and message only: never a request body). */
export function failed(span: Span, error: unknown): void {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  span.setAttribute('error.type', typeof code === 'string' ? code : name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: `${name}: ${message}`.slice(0, 500) });
}
