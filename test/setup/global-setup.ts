import { spawnSync } from 'node:child_process';
import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
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
  await resolveEventStore();
}

/**
 * TEST_EVENT_STORE, resolved once for the whole run (libs/event-store/src/testing/test-event-store.ts
 * reads it): postgres by default; esdb runs the harnesses on EventStoreDB/KurrentDB, the one at
 * EVENTSTORE_CONNECTION_STRING or a container started here. `npm run test:esdb` checks first
 * that one can run and otherwise prints what does not run, without starting jest.
 */
async function resolveEventStore(): Promise<void> {
  process.env.TEST_RUN_ID ??= `t${randomBytes(4).toString('hex')}`;
  const kind = process.env.TEST_EVENT_STORE ?? 'postgres';
  if (kind === 'postgres') return;
  if (kind !== 'esdb') throw new Error(`TEST_EVENT_STORE must be postgres or esdb, got '${kind}'`);
  if (process.env.EVENTSTORE_CONNECTION_STRING) {
    process.env.TEST_EVENTSTORE_CONNECTION_STRING = process.env.EVENTSTORE_CONNECTION_STRING;
    return;
  }
  if (process.env.TEST_DOCKER_AVAILABLE !== '1')
    throw new Error(
      'TEST_EVENT_STORE=esdb needs EVENTSTORE_CONNECTION_STRING or a Docker engine; `npm run test:esdb` says what it cannot run',
    );
  const { startEventStoreDb } = await import('../../libs/event-store/src/testing/eventstoredb-container');
  const server = await startEventStoreDb();
  process.env.TEST_EVENTSTORE_CONNECTION_STRING = server.connectionString;
  (globalThis as Record<string, unknown>).__EVENTSTOREDB__ = server;
}

/** `docker info` in a child process with a hard timeout: a socket that never answers must not hang the run. */
function probeDocker(): boolean {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim().length > 0;
}
