import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Type } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { createLogger, createRuntimeApp, loadConfig, type EventStoreFactory, type RuntimeApp } from '@app/platform';
import type { Clock } from '@app/core';
import { ApiModule } from '../../apps/runtime/src/api.module';
import { testStoreEnv } from '@app/event-store/testing';
import { isolatedDatabaseUrl } from './postgres';

/** The tokens most suites use: one agent-scoped token and one admin token. */
export const TEST_TOKENS = 'tok-a=agent-a|agent-b;tok-c=agent-c;tok-admin=*';

export interface TestAppOptions {
  /** RUNTIME_API_TOKENS; default TEST_TOKENS; null leaves it unset (generated admin token). */
  tokens?: string | null;
  /** Extra modules, e.g. a test-only controller or @GrpcService. */
  modules?: Type[];
  /**
   * Run the scheduler worker too (RUNTIME_ROLE=all). Off by default: the worker acts on its
   * own (ticks, decisions), which suites about other features would see as extra events.
   */
  scheduler?: boolean;
  /** More environment (RUNTIME_ROLE, AGENT_HOME...). */
  env?: Record<string, string>;
  clock?: Clock;
  eventStoreFactory?: EventStoreFactory;
  /** Where the process's log lines go (default: silent unless TEST_LOG_LEVEL is set). */
  logDestination?: DestinationStream;
  /** Where spans go when `env` turns tracing on (OTEL_TRACES_EXPORTER...): an InMemorySpanExporter. */
  spanExporter?: SpanExporter;
}

export interface TestApp {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** `127.0.0.1:<port>`, or null for roles without the API. */
  grpcAddress: string | null;
  /** GET /metrics on its own listener (METRICS_PORT), or null when served on the main port. */
  metricsUrl: string | null;
  /** The temporary RUNTIME_DATA_DIR (removed by close()). */
  dataDir: string;
  runtime: RuntimeApp;
  close(): Promise<void>;
}

/**
 * Boot the real runtime (Fastify, gRPC, auth, migrations, event store) on ephemeral
 * ports against the run's Postgres (process.env.DATABASE_URL from jest globalSetup),
 * with a fresh temporary data directory. Logs are silent unless TEST_LOG_LEVEL is set.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  if (!process.env.DATABASE_URL)
    throw new Error('DATABASE_URL is not set: run the suite through jest (globalSetup starts Postgres)');
  // The worker evaluates every agent of its store: on the shared schema it would write into
  // the agents of suites running beside it. A scheduler app gets a schema of its own.
  const databaseUrl =
    options.scheduler && !options.env?.DATABASE_URL ? await isolatedDatabaseUrl('app') : process.env.DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'runtime-app-'));
  chmodSync(dataDir, 0o755);
  const tokens = options.tokens === undefined ? TEST_TOKENS : options.tokens;
  const config = loadConfig({
    PORT: '0',
    GRPC_PORT: '0',
    HOST: '127.0.0.1',
    RUNTIME_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RUNTIME_ROLE: options.scheduler ? 'all' : 'api,projector',
    // Suites send many refused requests from 127.0.0.1 on purpose; the throttle has its own spec.
    RUNTIME_LOGIN_THROTTLE: 'off',
    // Suites on the run's shared schema each run a projector: one holds the projector lease (ADR
    // 0035), the others are standbys that take over soon after it closes (a third of the TTL).
    PROJECTOR_LEASE_TTL_MS: '3000',
    // The run's event store (TEST_EVENT_STORE): nothing on Postgres, EventStoreDB's address on esdb.
    ...testStoreEnv(options.env?.DATABASE_URL ?? databaseUrl),
    ...(tokens === null ? {} : { RUNTIME_API_TOKENS: tokens }),
    ...options.env,
  });
  const logger = options.logDestination ? createLogger(config, options.logDestination) : undefined;
  const runtime = await createRuntimeApp(config, {
    logger,
    clock: options.clock,
    eventStoreFactory: options.eventStoreFactory,
    api: [ApiModule],
    extraModules: options.modules,
    spanExporter: options.spanExporter,
  });
  try {
    const { httpUrl, grpcAddress, metricsUrl } = await runtime.listen();
    return {
      baseUrl: httpUrl,
      grpcAddress,
      metricsUrl,
      dataDir,
      runtime,
      close: async () => {
        await runtime.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await runtime.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
