import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopIfRunning } from '../support/postgres-control';
import { ServiceProcess, tempDataDir } from '../support/service-process';

/**
 * The service as `npm start` runs it (all roles, its own embedded Postgres in the data
 * directory), as a child process that the service scenarios crash, restart and share: one
 * initdb for all of them, and each later scenario starts from the history of the earlier ones.
 */
export class EmbeddedService {
  private constructor(
    readonly dataDir: string,
    public service: ServiceProcess,
  ) {}

  get pgDir(): string {
    return join(this.dataDir, 'pg');
  }

  static async start(): Promise<EmbeddedService> {
    const dataDir = tempDataDir('reliability-service-');
    try {
      return new EmbeddedService(dataDir, await ServiceProcess.start({ dataDir }));
    } catch (error) {
      await stopIfRunning(join(dataDir, 'pg'));
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Starts the service again on the same data directory (after a kill); returns the start-up time. */
  async restart(): Promise<number> {
    await this.service.stop();
    this.service = await ServiceProcess.start({ dataDir: this.dataDir });
    return this.service.startupMs;
  }

  async close(): Promise<void> {
    await this.service.stop();
    // A server restarted by a scenario runs as a daemon of its own (pg_ctl), not as the service's child.
    await stopIfRunning(this.pgDir);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Runs `body` on a fresh service, closed afterwards whatever happens. */
  static async with<T>(body: (host: EmbeddedService) => Promise<T>): Promise<T> {
    const host = await EmbeddedService.start();
    try {
      return await body(host);
    } finally {
      await host.close();
    }
  }
}
