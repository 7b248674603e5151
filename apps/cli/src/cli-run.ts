import { ConfigError, loadConfig, type RuntimeConfig } from '@app/platform';
import { CliError, EXIT, type CliIo } from './cli-io';
import { openCliStores, type CliStores } from './cli-stores';

/** The service's configuration, from the same environment (RUNTIME_ROLE does not matter here). */
export function cliConfig(io: CliIo): RuntimeConfig {
  try {
    return loadConfig(io.env, io.cwd);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(EXIT.usage, error.message);
    throw error;
  }
}

/** Opens the deployment's stores, runs `body`, and always closes them (and an embedded Postgres it started). */
export async function withStores<T>(io: CliIo, body: (stores: CliStores) => Promise<T>): Promise<T> {
  const stores = await openCliStores(cliConfig(io), io);
  try {
    return await body(stores);
  } finally {
    await stores.close();
  }
}
