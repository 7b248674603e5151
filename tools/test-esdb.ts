import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import matrix from '../test/store-matrix';

/**
 * `npm run test:esdb`: the e2e, reliability, client and benchmark suites on EventStoreDB/KurrentDB
 * (test/store-matrix.js says which; docs/testing.md how). The server is the one at
 * EVENTSTORE_CONNECTION_STRING, else a KurrentDB container where a Docker engine runs. Where
 * neither is there it does not start jest: it prints one `SKIPPED:` line for every suite that did
 * not run and why, and exits 0. Never green by silence: every suite of the matrix is named.
 * Arguments go to jest (e.g. a path to run part of the matrix).
 */
const ROOT = join(__dirname, '..');

const { suites, postgresOnly, clusterOnly } = matrix;

function specsUnder(folder: string): string[] {
  const absolute = join(ROOT, folder);
  return readdirSync(absolute).flatMap((name) => {
    const path = join(absolute, name);
    if (statSync(path).isDirectory()) return specsUnder(relative(ROOT, path));
    return name.endsWith('.spec.ts') ? [relative(ROOT, path)] : [];
  });
}

function dockerEngine(): boolean {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim().length > 0;
}

function clusterWhy(): string | null {
  return process.env.EVENTSTORE_CLUSTER_RUNTIME_URL
    ? null
    : 'no EVENTSTORE_CLUSTER_RUNTIME_URL: the runtime of `docker compose --profile cluster up` is not running';
}

function main(): number {
  const excluded = new Set([...postgresOnly, ...clusterOnly].map((entry) => entry.path));
  const specs = suites.flatMap(specsUnder).filter((path) => !excluded.has(path));
  for (const { path, why } of postgresOnly)
    process.stdout.write(`SKIPPED: ${path} on EventStoreDB (Postgres-specific: ${why})\n`);

  const server = process.env.EVENTSTORE_CONNECTION_STRING
    ? 'EVENTSTORE_CONNECTION_STRING'
    : dockerEngine()
      ? 'a KurrentDB container (testcontainers)'
      : null;
  if (server === null) {
    const why = 'no EVENTSTORE_CONNECTION_STRING and no Docker engine';
    for (const path of specs) process.stdout.write(`SKIPPED: ${path} on EventStoreDB (${why})\n`);
    for (const { path, why: what } of clusterOnly)
      process.stdout.write(`SKIPPED: ${path} on an EventStoreDB cluster (${what}; ${clusterWhy() ?? why})\n`);
    process.stdout.write(
      `test:esdb: nothing ran on EventStoreDB here: ${specs.length + clusterOnly.length} suites skipped (${why}), ` +
        `${postgresOnly.length} Postgres-specific. Set EVENTSTORE_CONNECTION_STRING (docker compose up -d eventstore: ` +
        `esdb://localhost:2113?tls=false) or run where Docker is.\n`,
    );
    return 0;
  }

  process.stdout.write(`test:esdb: ${specs.length} suites on EventStoreDB (${server})\n`);
  const jest = require.resolve('jest/bin/jest');
  const run = spawnSync(process.execPath, [jest, '-c', 'jest.esdb.config.js', ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TEST_EVENT_STORE: 'esdb' },
  });
  return run.status ?? 1;
}

process.exitCode = main();
