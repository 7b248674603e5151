import { processAlive, readServiceAddress, serviceAddressPath } from '@app/application';
import type { RuntimeConfig } from '@app/platform';

/** Which Postgres the CLI uses: the one the service would use (docs/decisions/0007). */
export type PostgresChoice =
  | { kind: 'database_url'; url: string; describe: string }
  | { kind: 'service'; url: string; describe: string }
  | { kind: 'embedded'; describe: string; note?: string };

/** `host:port/database` of a connection string: never the password. */
export function safeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * DATABASE_URL when set (the service uses it too); else the embedded Postgres of a running
 * service (it holds the data directory's lock and published its address); else an embedded
 * Postgres this command starts from RUNTIME_DATA_DIR. A leftover address file (the service
 * died) is reported and ignored.
 */
export async function choosePostgres(
  config: Pick<RuntimeConfig, 'databaseUrl' | 'dataDir'>,
  reachable: (url: string) => Promise<boolean>,
): Promise<PostgresChoice> {
  if (config.databaseUrl) {
    return {
      kind: 'database_url',
      url: config.databaseUrl,
      describe: `Postgres from DATABASE_URL (${safeTarget(config.databaseUrl)})`,
    };
  }
  const address = await readServiceAddress(config.dataDir);
  const embedded = `an embedded Postgres started from ${config.dataDir}/pg (no running service found)`;
  if (!address) return { kind: 'embedded', describe: embedded };
  const alive = processAlive(address.pid);
  if (alive && (await reachable(address.postgres_url))) {
    return {
      kind: 'service',
      url: address.postgres_url,
      describe: `the running service's Postgres (pid ${address.pid}, ${safeTarget(address.postgres_url)})`,
    };
  }
  const why = alive
    ? `its Postgres at ${safeTarget(address.postgres_url)} does not answer`
    : `process ${address.pid} is gone`;
  return { kind: 'embedded', describe: embedded, note: `ignoring ${serviceAddressPath(config.dataDir)}: ${why}` };
}
