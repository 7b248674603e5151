import { runEventStoreContract } from '../testing/event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { FakeEsdbServer } from './eventstoredb-fake-server';

/**
 * The store contract through the official client with its transport faked, on a server that
 * reports no positions in stream reads (the harder case): the same cases the adapter passes
 * against a real server where one runs (eventstoredb-event-store.integration.spec.ts).
 */
runEventStoreContract('eventstoredb (official client, faked transport)', async () => {
  const server = new FakeEsdbServer({ streamReadPositions: 'none' });
  return new EventStoreDbEventStore(server.client);
});
