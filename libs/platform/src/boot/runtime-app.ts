import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Type } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { createEventStore } from '@app/event-store';
import type { Clock, Logger } from '@app/core';
import { dialableHost, hostPort } from '../config/listen-address';
import { roleRuns, type RuntimeConfig } from '../config/runtime-config';
import { GrpcServerHost } from '../grpc/grpc-server.host';
import { configureBodyHandling, createFastifyAdapter } from '../http/fastify-setup';
import { setupOpenApi } from '../http/swagger';
import type { EventStoreFactory } from '../infrastructure/event-store.providers';
import { createLogger } from '../logging/logger';
import { MetricsServer } from '../metrics/metrics-server';
import { NEST_LOGGER } from '../logging/nest-logger.adapter';
import { registerRequestLogging } from '../logging/request-logging';
import { openPostgresConnection } from '../postgres/postgres-connection';
import { registerHttpTracing } from '../tracing/http-tracing';
import { OtelTracing } from '../tracing/otel-tracing';
import { startTracing } from '../tracing/tracing-sdk';
import { RuntimeModule } from './runtime.module';

export interface RuntimeAppOptions {
  logger?: Logger;
  clock?: Clock;
  /** Default `createEventStore` from `@app/event-store`. */
  eventStoreFactory?: EventStoreFactory;
  /** The modules of the API role (apps/runtime's ApiModule); needed when the role runs the API. */
  api?: Type[];
  /** Extra modules (tests add controllers or gRPC services). */
  extraModules?: Type[];
  /** Tests: where spans go when the OTEL_* variables turn tracing on (an InMemorySpanExporter). */
  spanExporter?: SpanExporter;
}

export interface RuntimeAddresses {
  /** Where a client on this machine reaches HTTP, e.g. `http://127.0.0.1:3000`. */
  httpUrl: string;
  /** Where a client on this machine reaches gRPC (`host:port`), or null when this role serves no API. */
  grpcAddress: string | null;
  /** What the servers are bound to (`0.0.0.0:3000` listens on every interface); gRPC null as above. */
  listening: { http: string; grpc: string | null };
  /** Where GET /metrics is served on its own listener (METRICS_PORT), or null when it is on the main port. */
  metricsUrl: string | null;
}

export interface RuntimeApp {
  readonly app: NestFastifyApplication;
  readonly config: RuntimeConfig;
  readonly logger: Logger;
  /** The OpenAPI document /docs-json serves (`npm run openapi:export` writes it to docs/openapi.json). */
  readonly openApi: OpenAPIObject;
  /** Start HTTP on PORT and (roles all/api) gRPC on GRPC_PORT. */
  listen(): Promise<RuntimeAddresses>;
  /** Graceful: gRPC drains, HTTP closes, then store, pool and embedded Postgres (last). */
  close(): Promise<void>;
}

const VERSION = '0.1.0';

/**
 * The composition root shared by every app main and by the tests: Postgres (embedded or
 * DATABASE_URL) first, then the Nest app on Fastify with the platform's HTTP rules.
 */
export async function createRuntimeApp(config: RuntimeConfig, options: RuntimeAppOptions = {}): Promise<RuntimeApp> {
  const logger = options.logger ?? createLogger(config);
  const connection = await openPostgresConnection(config, logger);
  const tracing = startTracing(config.tracing, { role: config.role, version: VERSION, exporter: options.spanExporter });
  // Nest's shutdown stops it once the app exists (TracingLifecycle); before that, a failed start does.
  const stopTracing = () => (tracing instanceof OtelTracing ? tracing.shutdown() : Promise.resolve());
  let app: NestFastifyApplication | undefined;
  let openApi: OpenAPIObject;
  try {
    const module = RuntimeModule.forRoot({
      config,
      logger,
      clock: options.clock,
      tracing,
      connection,
      eventStoreFactory: options.eventStoreFactory ?? createEventStore,
      api: options.api,
      extraModules: options.extraModules,
    });
    app = await NestFactory.create<NestFastifyApplication>(module, createFastifyAdapter(config.trustedProxies ?? []), {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
    });
    app.useLogger(app.get(NEST_LOGGER));
    const fastify = app.getHttpAdapter().getInstance();
    configureBodyHandling(fastify);
    registerRequestLogging(fastify, logger);
    if (tracing instanceof OtelTracing) {
      registerHttpTracing(app, fastify, tracing);
      logger.info({ exporters: config.tracing?.exporters, service: config.tracing?.serviceName }, 'tracing on');
    }
    const docs = setupOpenApi(app, VERSION);
    openApi = docs.document;
    if (!docs.ui) logger.warn('@fastify/static cannot be loaded: /docs UI off, /docs-json still served');
  } catch (error) {
    await app?.close().catch(() => undefined);
    await connection.close().catch(() => undefined);
    await stopTracing().catch(() => undefined);
    throw error;
  }
  const nest = app;
  return {
    app: nest,
    config,
    logger,
    openApi,
    async listen() {
      await nest.listen({ port: config.port, host: config.host });
      const address = nest.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const bound = typeof address === 'object' && address ? address.address : config.host;
      const grpc = roleRuns(config.role).api ? nest.get(GrpcServerHost) : null;
      const metricsUrl =
        config.metricsPort === undefined ? null : await nest.get(MetricsServer).listen(config.host, config.metricsPort);
      const addresses: RuntimeAddresses = {
        httpUrl: `http://${hostPort(dialableHost(config.host), port)}`,
        grpcAddress: grpc?.address ?? null,
        listening: { http: hostPort(bound, port), grpc: grpc?.listening ?? null },
        metricsUrl,
      };
      logger.info(
        { ...addresses, role: config.role, node: process.version, embedded_postgres: connection.embedded },
        'runtime listening',
      );
      return addresses;
    },
    async close() {
      await nest.close();
      // Normally already stopped by InfrastructureLifecycle; idempotent.
      await connection.close();
    },
  };
}
