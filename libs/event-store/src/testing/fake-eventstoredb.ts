import type { EventStoreDbEventStore, EventStoreDbEventStoreOptions } from '../eventstoredb/eventstoredb-event-store';
import type { FakeEsdbServer, FakeServerOptions } from '../eventstoredb/eventstoredb-fake-server';

export type { FakeEsdbServer, FakeServerOptions } from '../eventstoredb/eventstoredb-fake-server';

/**
 * The EventStoreDB adapter on the official client with its transport faked (FakeEsdbServer):
 * for specs of the store's consumers (the projection runner's server checkpoints) where no
 * server runs. Loaded lazily, so specs that never ask for it do not load the gRPC client.
 */
export async function fakeEventStoreDb(
  server: FakeServerOptions = {},
  options: EventStoreDbEventStoreOptions = {},
): Promise<{ server: FakeEsdbServer; store: EventStoreDbEventStore }> {
  const { FakeEsdbServer: Server } = await import('../eventstoredb/eventstoredb-fake-server');
  const { EventStoreDbEventStore: Store } = await import('../eventstoredb/eventstoredb-event-store');
  const fake = new Server(server);
  return { server: fake, store: new Store(fake.client, options) };
}
