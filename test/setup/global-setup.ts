import { spawnSync } from 'node:child_process';
import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../libs/platform/src/postgres/embedded-postgres';

/**
 * Runs once, outside the jest sandbox: starts a real embedded Postgres for the whole run
 * (unless DATABASE_URL is given) and probes for a container engine, so that container
 * suites can skip with one visible line instead of hanging.
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    const base = mkdtempSync(join(tmpdir(), 'runtime-test-'));
    chmodSync(base, 0o755);
    const handle = await startEmbeddedPostgres({ dataDir: join(base, 'pg') });
    process.env.DATABASE_URL = handle.url;
    process.env.TEST_TMP_DIR = base;
    (globalThis as Record<string, unknown>).__EMBEDDED_PG__ = handle;
  }
  process.env.TEST_DOCKER_AVAILABLE = probeDocker() ? '1' : '0';
  if (process.env.TEST_DOCKER_AVAILABLE === '0' && process.env.TESTCONTAINERS === 'required') {
    throw new Error('TESTCONTAINERS=required but no working container engine was found');
  }
}

/** `docker info` in a child process with a hard timeout: a socket that never answers must not hang the run. */
function probeDocker(): boolean {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim().length > 0;
}
