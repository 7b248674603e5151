import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readServiceAddress, writeServiceAddress } from '@app/application';
import type { Logger } from '@app/core';
import type { PostgresConnection, RuntimeConfig } from '@app/platform';
import { ServiceAddressLifecycle } from './service-address.lifecycle';

describe('the service address file', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'service-address-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const lifecycle = (embedded: boolean) =>
    new ServiceAddressLifecycle(
      { dataDir, role: 'all' } as RuntimeConfig,
      { embedded, url: 'postgres://u:p@127.0.0.1:5999/runtime' } as PostgresConnection,
      { warn: () => undefined } as unknown as Logger,
    );

  it('is written at start by a service running the embedded Postgres, and removed before it stops', async () => {
    const service = lifecycle(true);
    await service.onApplicationBootstrap();
    expect(await readServiceAddress(dataDir)).toMatchObject({
      pid: process.pid,
      postgres_url: 'postgres://u:p@127.0.0.1:5999/runtime',
      role: 'all',
    });
    await service.beforeApplicationShutdown();
    expect(await readServiceAddress(dataDir)).toBeNull();
  });

  it('is not written for an external DATABASE_URL (the CLI reads the same variable)', async () => {
    await lifecycle(false).onApplicationBootstrap();
    expect(await readServiceAddress(dataDir)).toBeNull();
  });

  it('is left alone at stop when another service has replaced it', async () => {
    await writeServiceAddress(dataDir, {
      pid: process.pid + 1,
      postgres_url: 'postgres://x',
      role: 'all',
      started_at: '',
    });
    await lifecycle(true).beforeApplicationShutdown();
    expect(await readServiceAddress(dataDir)).toMatchObject({ pid: process.pid + 1 });
  });
});
