import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { StoreUnavailableError } from '../errors';
import { Collector, newEvent, newEvents, streamsStartingWith, uniqueStream, until } from '../testing/contract-helpers';
import { TcpProxy } from '../testing/tcp-proxy';
import { PostgresEventStore } from './postgres-event-store';
import { ensureSchema } from './schema';

const url = new URL(process.env.DATABASE_URL as string);

/** A subscriber losing its database connection resumes after its last event: no gap, no repeat. */
describe('postgres subscription when the database connection is lost', () => {
  const pools: Pool[] = [];
  let writer: PostgresEventStore;
  let admin: Pool;
  const pool = (connectionString: string, extra: { application_name?: string } = {}): Pool => {
    const created = new Pool({ connectionString, max: 5, connectionTimeoutMillis: 2000, ...extra });
    created.on('error', () => undefined); // idle clients dropped on purpose below
    pools.push(created);
    return created;
  };
  beforeAll(async () => {
    admin = pool(url.toString());
    await ensureSchema(admin);
    writer = new PostgresEventStore(admin);
  });
  afterAll(async () => {
    await writer.close();
    await Promise.all(pools.map((p) => p.end()));
  });

  async function subscribeAfterMarker(store: PostgresEventStore, prefix: string): Promise<Collector> {
    const marker = await writer.appendToStream(`${prefix}-marker`, [newEvent()], 'no_stream');
    return new Collector(store.subscribeToAll({ after_position: marker.position }), streamsStartingWith(`${prefix}-s`));
  }

  it('retries with backoff while the server is unreachable and resumes after the last event', async () => {
    const proxy = await TcpProxy.start(url.hostname, Number(url.port));
    const viaProxy = new URL(url.toString());
    viaProxy.port = String(proxy.port);
    const flaky = new PostgresEventStore(pool(viaProxy.toString()), { pollIntervalMs: 100 });
    const prefix = uniqueStream('outage');
    const collector = await subscribeAfterMarker(flaky, prefix);
    try {
      const before = newEvents(3);
      await writer.appendToStream(`${prefix}-s`, before, 'no_stream');
      await collector.waitFor((events) => events.length >= 3);

      proxy.cut();
      const during = newEvents(3);
      await writer.appendToStream(`${prefix}-s`, during, 2n);
      await expect(flaky.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(flaky.readAll({ max_count: 1 })).rejects.toBeInstanceOf(StoreUnavailableError);
      // Beyond the two calls above, the subscriber itself must have failed and retried.
      await until(() => proxy.refused >= 5, 8000, 'the subscriber to retry through the outage');
      expect(collector.events).toHaveLength(3);
      expect(collector.error).toBeUndefined();

      proxy.restore();
      const after = newEvents(2);
      await writer.appendToStream(`${prefix}-s`, after, 5n);
      const seen = await collector.waitFor((events) => events.length >= 8);
      expect(seen.map((e) => e.id)).toEqual([...before, ...during, ...after].map((e) => e.id));
    } finally {
      await collector.stop();
      await flaky.close();
      await proxy.close();
    }
  });

  it('survives its connections being terminated by the server', async () => {
    const app = `es-terminated-${randomUUID().slice(0, 8)}`;
    const flaky = new PostgresEventStore(pool(url.toString(), { application_name: app }), { pollIntervalMs: 100 });
    const prefix = uniqueStream('terminated');
    const collector = await subscribeAfterMarker(flaky, prefix);
    try {
      const first = newEvents(3);
      await writer.appendToStream(`${prefix}-s`, first, 'no_stream');
      await collector.waitFor((events) => events.length >= 3);
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [app],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      const second = newEvents(3);
      await writer.appendToStream(`${prefix}-s`, second, 2n);
      const seen = await collector.waitFor((events) => events.length >= 6);
      expect(seen.map((e) => e.id)).toEqual([...first, ...second].map((e) => e.id));
    } finally {
      await collector.stop();
      await flaky.close();
    }
  });
});
