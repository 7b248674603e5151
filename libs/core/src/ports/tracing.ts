/**
 * Tracing, as the libraries below the platform see it (docs/decisions/0033). The platform
 * implements it with the OpenTelemetry SDK when the `OTEL_*` variables turn tracing on; otherwise
 * every library holds NO_TRACING, whose methods only call `fn`: nothing is created per command.
 */

/** The W3C trace context (`traceparent`, `tracestate`) as stored in an event's metadata. */
export interface TraceContextFields {
  traceparent?: string;
  tracestate?: string;
}

export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** An event's metadata (or anything else holding a stored trace context) and what its span says of it. */
export interface TracedEvent {
  metadata: Readonly<Record<string, unknown>> | undefined;
  attributes?: SpanAttributes;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Runs `fn` in a span, a child of the active one (a command: decide and append). */
  inSpan<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
  /** The active span's context in W3C form, for the metadata of the events it appends; {} without one. */
  currentContext(): TraceContextFields;
  /**
   * Runs `fn` (work done for several events at once: a projection batch) with one span per event
   * that carries a stored trace context, each a child of that context, all ending when `fn` does.
   */
  forEvents<T>(name: string, events: readonly TracedEvent[], fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one span caused by `events`: a child of the last one's stored context (so it
   * continues that trace), linked to the others'; a root span when none carries a context.
   * `fn` may add attributes to the span once it knows them (`annotate`).
   */
  causedBy<T>(
    name: string,
    events: readonly TracedEvent[],
    attributes: SpanAttributes,
    fn: (annotate: (attributes: SpanAttributes) => void) => Promise<T>,
  ): Promise<T>;
}

/** Tracing off: no span, no context, no cost but the call. */
export const NO_TRACING: Tracing = {
  enabled: false,
  inSpan: (_name, _attributes, fn) => fn(),
  currentContext: () => ({}),
  forEvents: (_name, _events, fn) => fn(),
  causedBy: (_name, _events, _attributes, fn) => fn(() => undefined),
};

/** The process's Tracing (libs/platform provides it: NO_TRACING unless the OTEL_* variables turn it on). */
export const TRACING = Symbol('TRACING');
