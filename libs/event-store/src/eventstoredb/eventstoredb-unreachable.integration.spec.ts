import { createServer, type Server, type Socket } from 'node:net';
import type { Pool } from 'pg';
import { StoreUnavailableError } from '../errors';
import { createEventStore } from '../event-store.factory';
import { newEvent } from '../testing/contract-helpers';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/** No server needed: what the adapter does when EventStoreDB is down or does not answer. */
describe('EventStoreDB adapter without a working server', () => {
  it('is what the factory builds when a connection string is given (no Postgres touched)', async () => {
    const untouchable = {} as Pool; // any use of the pool would throw
    const store = await createEventStore({
      pool: untouchable,
      eventStoreConnectionString: 'esdb://127.0.0.1:1?tls=false',
    });
    expect(store).toBeInstanceOf(EventStoreDbEventStore);
    await store.close();
  });

  it('reports a closed port as StoreUnavailableError', async () => {
    const store = EventStoreDbEventStore.fromConnectionString('esdb://127.0.0.1:1?tls=false', { timeoutMs: 3000 });
    try {
      await expect(store.appendToStream('s', [newEvent()], 'any')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await store.close();
    }
  });

  describe('a port that accepts connections and never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    let port = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });

    it('times out with StoreUnavailableError instead of hanging', async () => {
      const store = EventStoreDbEventStore.fromConnectionString(`esdb://127.0.0.1:${port}?tls=false`, {
        timeoutMs: 500,
      });
      const started = Date.now();
      try {
        await expect(store.appendToStream('s', [newEvent()], 'any')).rejects.toBeInstanceOf(StoreUnavailableError);
        await expect(store.readStream('s')).rejects.toBeInstanceOf(StoreUnavailableError);
        expect(Date.now() - started).toBeLessThan(4000);
      } finally {
        await store.close();
      }
    });
  });
});
