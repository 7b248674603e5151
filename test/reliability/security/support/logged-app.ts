import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, loadConfig } from '@app/platform';
import { createRuntimeApp } from '../../../../apps/runtime/src/runtime-app';
import type { TestApp } from '../../../support/app';

export interface LoggedApp extends TestApp {
  /** Every line the process logged, as written (JSON text). */
  lines: string[];
}

/**
 * startTestApp's app with its one pino logger writing into memory at `trace` (everything:
 * request lines, RPC lines, Nest's and grpc-js's own diagnostics), through the composition
 * root's `logger` option.
 */
export async function startLoggedApp(tokens: string): Promise<LoggedApp> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run the suite through jest (globalSetup starts Postgres)');
  const dataDir = mkdtempSync(join(tmpdir(), 'runtime-logged-'));
  chmodSync(dataDir, 0o755);
  const config = loadConfig({
    PORT: '0',
    GRPC_PORT: '0',
    HOST: '127.0.0.1',
    RUNTIME_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'trace',
    RUNTIME_ROLE: 'api,projector',
    RUNTIME_API_TOKENS: tokens,
  });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line.length > 0));
      done();
    },
  });
  const runtime = await createRuntimeApp(config, { logger: createLogger(config, sink) });
  try {
    const { httpUrl, grpcAddress } = await runtime.listen();
    return {
      baseUrl: httpUrl,
      grpcAddress,
      dataDir,
      runtime,
      lines,
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
