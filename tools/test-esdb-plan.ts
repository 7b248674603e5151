import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import matrix from '../test/store-matrix';

/**
 * What `npm run test:esdb` runs and, without a server, the exact `SKIPPED:` lines it prints
 * (pure, so a spec can hold the lines to what did not run: test/architecture/test-esdb-plan.spec.ts).
 */
export const ROOT = join(__dirname, '..');
export const NO_SERVER = 'no EVENTSTORE_CONNECTION_STRING and no Docker engine';

function specsUnder(folder: string): string[] {
  const absolute = join(ROOT, folder);
  return readdirSync(absolute).flatMap((name) => {
    const path = join(absolute, name);
    if (statSync(path).isDirectory()) return specsUnder(relative(ROOT, path));
    return name.endsWith('.spec.ts') ? [relative(ROOT, path)] : [];
  });
}

/** The matrix's suites that run on a single EventStoreDB server (not the Postgres-only nor the cluster-only ones). */
export function matrixSpecs(): string[] {
  const excluded = new Set([...matrix.postgresOnly, ...matrix.clusterOnly].map((entry) => entry.path));
  return matrix.suites.flatMap(specsUnder).filter((path) => !excluded.has(path));
}

export function clusterWhy(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.EVENTSTORE_CLUSTER_RUNTIME_URL
    ? null
    : 'no EVENTSTORE_CLUSTER_RUNTIME_URL: the runtime of `docker compose --profile cluster up` is not running';
}

/** Printed in every case: the Postgres-specific suites never run on EventStoreDB. */
export function postgresOnlyLines(): string[] {
  return matrix.postgresOnly.map(({ path, why }) => `SKIPPED: ${path} on EventStoreDB (Postgres-specific: ${why})`);
}

/** Without a server: one line per suite that did not run, and the closing count. */
export function noServerLines(specs: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const why = NO_SERVER;
  return [
    ...specs.map((path) => `SKIPPED: ${path} on EventStoreDB (${why})`),
    ...matrix.clusterOnly.map(
      ({ path, why: what }) => `SKIPPED: ${path} on an EventStoreDB cluster (${what}; ${clusterWhy(env) ?? why})`,
    ),
    `test:esdb: nothing ran on EventStoreDB here: ${specs.length + matrix.clusterOnly.length} suites skipped (${why}), ` +
      `${matrix.postgresOnly.length} Postgres-specific. Set EVENTSTORE_CONNECTION_STRING (docker compose up -d eventstore: ` +
      `esdb://localhost:2113?tls=false) or run where Docker is.`,
  ];
}
