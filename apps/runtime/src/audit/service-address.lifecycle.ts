import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { removeServiceAddress, writeServiceAddress } from '@app/application';
import { LOGGER, type Logger } from '@app/core';
import { POSTGRES_CONNECTION, RUNTIME_CONFIG, type PostgresConnection, type RuntimeConfig } from '@app/platform';

/**
 * A service that started the embedded Postgres of its data directory says where it is
 * (`<RUNTIME_DATA_DIR>/service.json`), so the CLI can use it instead of failing on the
 * directory's lock; the file goes before the server stops (docs/decisions/0007).
 */
@Injectable()
export class ServiceAddressLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
    @Inject(POSTGRES_CONNECTION) private readonly connection: PostgresConnection,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.connection.embedded) return;
    const address = {
      pid: process.pid,
      postgres_url: this.connection.url,
      role: this.config.role,
      started_at: new Date().toISOString(),
    };
    await writeServiceAddress(this.config.dataDir, address).catch((error) =>
      this.logger.warn(
        { err: error, component: 'cli-address' },
        'could not write the service address file: the CLI will not find this service',
      ),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.connection.embedded) await removeServiceAddress(this.config.dataDir).catch(() => undefined);
  }
}
