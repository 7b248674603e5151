import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

export interface StartedEventStoreDb {
  connectionString: string;
  stop(): Promise<void>;
}

/**
 * A throwaway insecure single-node EventStoreDB (in memory). Written by hand:
 * @testcontainers/kurrentdb exists only for testcontainers 12, which crashes on Node 20.
 */
export async function startEventStoreDb(image = 'eventstore/eventstore:24.10'): Promise<StartedEventStoreDb> {
  const container: StartedTestContainer = await new GenericContainer(image)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_CLUSTER_SIZE: '1',
      EVENTSTORE_MEM_DB: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_HTTP_PORT: '2113',
    })
    .withExposedPorts(2113)
    // /health/live answers 204 once the node accepts client requests.
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .withStartupTimeout(90_000)
    .start();
  return {
    connectionString: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => {
      await container.stop();
    },
  };
}
