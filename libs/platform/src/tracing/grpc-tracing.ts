import type { Metadata } from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, type TextMapGetter, trace } from '@opentelemetry/api';
import type { OtelTracing } from './otel-tracing';

const METADATA: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const value = metadata.get(key)[0];
    return typeof value === 'string' ? value : undefined;
  },
};

/** A unary call's SERVER span, a child of its `traceparent` metadata when valid. */
export interface GrpcServerSpan {
  /** Runs the call's work in the span's context (the command span and its events belong to the call's trace). */
  run<T>(fn: () => T): T;
  /** `code`: the wire code of the reply (`ok` on success). */
  end(code: string): void;
}

export function startGrpcServerSpan(tracing: OtelTracing, path: string, metadata: Metadata): GrpcServerSpan {
  const parent = tracing.extract(metadata, METADATA);
  const [, service = '', method = ''] = /^\/([^/]*)\/(.*)$/.exec(path) ?? [];
  const span = tracing.start(path.replace(/^\//, ''), SpanKind.SERVER, parent, {
    'rpc.system': 'grpc',
    'rpc.service': service,
    'rpc.method': method,
  });
  const context = trace.setSpan(parent, span);
  return {
    run: (fn) => tracing.with(context, fn),
    end: (code) => {
      span.setAttribute('agent_runtime.code', code);
      if (code === 'internal' || code === 'unavailable') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
