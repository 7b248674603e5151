import { KurrentDbContainer } from '@testcontainers/kurrentdb';

export interface StartedEventStoreDb {
  connectionString: string;
  stop(): Promise<void>;
}

/** The KurrentDB image the container suites run against (KurrentDB is EventStoreDB's current name). */
export const KURRENTDB_IMAGE = 'kurrentplatform/kurrentdb:25.1';

/**
 * A throwaway insecure single-node KurrentDB from testcontainers' KurrentDB module (it waits
 * for the image's health check). The module hands out a `kurrentdb://` connection string; the
 * EventStoreDB client the adapter is built on reads the same string under `esdb://`.
 */
export async function startEventStoreDb(image = KURRENTDB_IMAGE): Promise<StartedEventStoreDb> {
  const container = await new KurrentDbContainer(image)
    .withEnvironment({
      KURRENTDB_MEM_DB: 'true',
      KURRENTDB_RUN_PROJECTIONS: 'None',
      KURRENTDB_START_STANDARD_PROJECTIONS: 'false',
    })
    .start();
  return {
    connectionString: container.getConnectionString().replace(/^kurrentdb:\/\//, 'esdb://'),
    stop: async () => {
      await container.stop();
    },
  };
}
