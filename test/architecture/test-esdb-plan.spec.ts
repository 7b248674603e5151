import { existsSync } from 'node:fs';
import { join } from 'node:path';
import matrix from '../store-matrix';
import { matrixSpecs, NO_SERVER, noServerLines, postgresOnlyLines, ROOT } from '../../tools/test-esdb-plan';

/**
 * `npm run test:esdb` without a server (as on this machine): the skip lines say exactly what did
 * not run here, one per suite, and name no suite that does not exist (issue 20, Done when).
 */
describe('npm run test:esdb without a server: the skip lines', () => {
  const specs = matrixSpecs();

  it('every suite the lists name exists', () => {
    for (const { path } of [...matrix.postgresOnly, ...matrix.clusterOnly])
      expect(existsSync(join(ROOT, path))).toBe(true);
  });

  it('one line per suite of the matrix, naming it and why, then the count', () => {
    const lines = noServerLines(specs, {});
    expect(specs.length).toBeGreaterThan(50);
    expect(lines).toHaveLength(specs.length + matrix.clusterOnly.length + 1);
    expect(lines.slice(0, specs.length)).toEqual(
      specs.map((path) => `SKIPPED: ${path} on EventStoreDB (${NO_SERVER})`),
    );
    expect(specs).toEqual(
      expect.arrayContaining(['test/e2e/work-items/archive.e2e.spec.ts', 'test/bench/bench-quick.spec.ts']),
    );
    for (const { path } of [...matrix.postgresOnly, ...matrix.clusterOnly]) expect(specs).not.toContain(path);
    expect(lines[specs.length]).toMatch(
      /^SKIPPED: test\/reliability\/leader-failover\.reliability\.spec\.ts on an EventStoreDB cluster \(.+; no EVENTSTORE_CLUSTER_RUNTIME_URL/,
    );
    expect(lines.at(-1)).toBe(
      `test:esdb: nothing ran on EventStoreDB here: ${specs.length + 1} suites skipped (${NO_SERVER}), ` +
        `${matrix.postgresOnly.length} Postgres-specific. Set EVENTSTORE_CONNECTION_STRING (docker compose up -d eventstore: ` +
        'esdb://localhost:2113?tls=false) or run where Docker is.',
    );
  });

  it('the Postgres-specific suites each say why', () => {
    expect(postgresOnlyLines()).toEqual(
      matrix.postgresOnly.map(({ path, why }) => `SKIPPED: ${path} on EventStoreDB (Postgres-specific: ${why})`),
    );
    for (const { why } of matrix.postgresOnly) expect(why.length).toBeGreaterThan(10);
  });

  it('every suite of the matrix folders is either run, Postgres-specific or cluster-only', () => {
    const listed = new Set([
      ...specs,
      ...matrix.postgresOnly.map((e) => e.path),
      ...matrix.clusterOnly.map((e) => e.path),
    ]);
    expect(listed.size).toBe(specs.length + matrix.postgresOnly.length + matrix.clusterOnly.length);
  });
});
