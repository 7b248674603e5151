import { startEmbeddedPostgres } from '@app/platform';

/**
 * Starts the embedded Postgres the way every consumer does, in a child process of the spec
 * (the package is ESM-only and keeps process-wide state), prints `READY {url, clusterDir}` and
 * stops it when stdin closes. A failed start prints `FAILED <message>` and exits 1.
 * Env: PG_DATA_DIR, PG_REACHABLE_BASE, PG_RELOCATE_BINARIES=1, PG_INITDB_FLAGS (space separated).
 */
async function main(): Promise<void> {
  const handle = await startEmbeddedPostgres({
    dataDir: process.env.PG_DATA_DIR ?? '',
    reachableBase: process.env.PG_REACHABLE_BASE || undefined,
    relocateBinaries: process.env.PG_RELOCATE_BINARIES === '1',
    initdbFlags: (process.env.PG_INITDB_FLAGS ?? '').split(' ').filter(Boolean),
    releaseSignals: true,
  });
  process.stdout.write(`READY ${JSON.stringify({ url: handle.url, clusterDir: handle.clusterDir })}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await handle.stop();
  process.stdout.write('STOPPED\n');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stdout.write(`FAILED ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
