import { spawnSync } from 'node:child_process';
import { matrixSpecs, noServerLines, postgresOnlyLines, ROOT } from './test-esdb-plan';

/**
 * `npm run test:esdb`: the e2e, reliability, client and benchmark suites on EventStoreDB/KurrentDB
 * (test/store-matrix.js says which; docs/testing.md how). The server is the one at
 * EVENTSTORE_CONNECTION_STRING, else a KurrentDB container where a Docker engine runs. Where
 * neither is there it does not start jest: it prints one `SKIPPED:` line for every suite that did
 * not run and why, and exits 0. Never green by silence: every suite of the matrix is named.
 * Arguments go to jest (e.g. a path to run part of the matrix).
 */
function dockerEngine(): boolean {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim().length > 0;
}

function main(): number {
  const specs = matrixSpecs();
  for (const line of postgresOnlyLines()) process.stdout.write(`${line}\n`);

  const server = process.env.EVENTSTORE_CONNECTION_STRING
    ? 'EVENTSTORE_CONNECTION_STRING'
    : dockerEngine()
      ? 'a KurrentDB container (testcontainers)'
      : null;
  if (server === null) {
    for (const line of noServerLines(specs)) process.stdout.write(`${line}\n`);
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
