import type { IncomingHttpHeaders } from 'node:http';
import type { CallHandler, ExecutionContext, INestApplication, NestInterceptor } from '@nestjs/common';
import { type Context, type Span, SpanKind, SpanStatusCode, type TextMapGetter, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { loggablePath } from '../logging/request-logging';
import type { OtelTracing } from './otel-tracing';

/** Only the API is traced: not /health, /metrics, /docs or the console's files. */
const TRACED = /^\/v1(\/|\?|$)/;

const HEADERS: TextMapGetter<IncomingHttpHeaders> = {
  keys: (headers) => Object.keys(headers),
  get: (headers, key) => headers[key],
};

/** The server span of each traced request, and the context its handler runs in. Named by route, or by method alone (semantic conventions: no unbounded names). */
const serverSpans = new WeakMap<FastifyRequest, { span: Span; context: Context }>();

/**
 * HTTP server spans: each `/v1` request gets a SERVER span, a child of its `traceparent` header
 * when it carries a valid one, ended when the reply is sent (or the client goes away). The
 * interceptor runs the route's handler in the span's context, so the command span (decide and
 * append) and the events it appends belong to the request's trace. Registered only when tracing
 * is on: with it off no hook exists.
 */
export function registerHttpTracing(app: INestApplication, fastify: FastifyInstance, tracing: OtelTracing): void {
  fastify.addHook('onRequest', async (request) => {
    if (!TRACED.test(request.url)) return;
    const parent = tracing.extract(request.headers, HEADERS);
    const route = request.routeOptions?.url;
    const span = tracing.start(route ? `${request.method} ${route}` : request.method, SpanKind.SERVER, parent, {
      'http.request.method': request.method,
      'url.path': loggablePath(request.url),
      ...(route ? { 'http.route': route } : {}),
    });
    serverSpans.set(request, { span, context: trace.setSpan(parent, span) });
  });
  const end = (request: FastifyRequest, status?: number) => {
    const traced = serverSpans.get(request);
    if (!traced) return;
    serverSpans.delete(request);
    if (status !== undefined) {
      traced.span.setAttribute('http.response.status_code', status);
      if (status >= 500) traced.span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      traced.span.setAttribute('error.type', 'client_aborted');
    }
    traced.span.end();
  };
  fastify.addHook('onResponse', async (request, reply) => end(request, reply.statusCode));
  fastify.addHook('onRequestAbort', async (request) => end(request));
  app.useGlobalInterceptors(new TraceContextInterceptor(tracing));
}

/** Runs the handler (and whatever it starts) in the request's server span. */
export class TraceContextInterceptor implements NestInterceptor {
  constructor(private readonly tracing: OtelTracing) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const traced = serverSpans.get(context.switchToHttp().getRequest<FastifyRequest>());
    if (!traced) return next.handle();
    // Nest binds the handler's async context when handle() is called: call it inside the span's.
    return new Observable((subscriber) => this.tracing.with(traced.context, () => next.handle().subscribe(subscriber)));
  }
}
