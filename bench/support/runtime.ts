import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testStoreEnv } from '@app/event-store/testing';
import { createRuntimeApp, loadConfig, RATE_LIMIT_ENV, type RuntimeApp } from '@app/platform';
import { ApiModule } from '../../apps/runtime/src/api.module';
import type { BenchPostgres } from './postgres';

export const BENCH_TOKEN = 'bench-admin-token';
/** The per-token rate limit would refuse a load test: a limit no run reaches keeps its check in the path. */
const UNLIMITED_RATE = '9999999/1';

export const BENCH_WORK_ITEM = 'w-1';

export interface RuntimeFixture {
  httpUrl: string;
  grpcAddress: string;
  token: string;
  /** Registered agents, each with one open work item BENCH_WORK_ITEM. */
  agents: string[];
  /** The Nest app (for instrumentation by a bench, e.g. bench/command-profile.ts --phases). */
  app?: RuntimeApp['app'];
  close(): Promise<void>;
}

export interface RuntimeFixtureOptions {
  /** RUNTIME_ROLE (default `api`). */
  role?: string;
  /** Seed each agent with the open work item BENCH_WORK_ITEM (default true). */
  workItems?: boolean;
  /** The agents' id prefix (default `bench`). */
  prefix?: string;
}

/**
 * The real runtime (createRuntimeApp) with RUNTIME_ROLE=api, so that no projector or
 * scheduler competes with the commands, on its own schema of the bench Postgres.
 */
export async function startRuntimeFixture(
  pg: BenchPostgres,
  agentCount: number,
  options: RuntimeFixtureOptions = {},
): Promise<RuntimeFixture> {
  const url = await pg.isolated(options.prefix ? `runtime_${options.prefix}` : 'runtime');
  const dataDir = mkdtempSync(join(tmpdir(), 'runtime-bench-app-'));
  chmodSync(dataDir, 0o755);
  const config = loadConfig({
    PORT: '0',
    GRPC_PORT: '0',
    HOST: '127.0.0.1',
    RUNTIME_DATA_DIR: dataDir,
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    RUNTIME_ROLE: options.role ?? 'api',
    RUNTIME_API_TOKENS: `${BENCH_TOKEN}=*`,
    [RATE_LIMIT_ENV]: UNLIMITED_RATE,
    ...testStoreEnv(url),
  });
  const runtime = await createRuntimeApp(config, { api: [ApiModule] });
  const close = async () => {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const { httpUrl, grpcAddress } = await runtime.listen();
    const agents = Array.from({ length: agentCount }, (_, i) => `${options.prefix ?? 'bench'}-${i}`);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${httpUrl}${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
      });
      if (!response.ok) throw new Error(`seeding ${path}: ${response.status} ${await response.text()}`);
    };
    for (const agent of agents) {
      await post('/v1/agents', { agent_id: agent });
      if (options.workItems === false) continue;
      await post(`/v1/agents/${agent}/work-items`, {
        work_item_id: BENCH_WORK_ITEM,
        objective: 'benchmark the command path',
      });
    }
    return { httpUrl, grpcAddress: grpcAddress!, token: BENCH_TOKEN, agents, app: runtime.app, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
