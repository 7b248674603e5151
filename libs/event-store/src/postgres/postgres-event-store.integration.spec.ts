import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { createEventStore } from '../event-store.factory';
import { IdempotencyConflictError, StoreUnavailableError, WrongExpectedRevisionError } from '../errors';
import type { EventToAppend, ExpectedRevision } from '../event-store.port';
import { toJsonExpectedRevision } from '../revisions';
import { newEvent, newEvents, uniqueStream, type OpenAppend } from '../testing/contract-helpers';
import { runEventStoreContract } from '../testing/event-store.contract';
import { leakedGlobalLocks, xidOrderInversions } from '../testing/postgres-checks';
import { PostgresEventStore, READ_ALL_SQL } from './postgres-event-store';
import { ensureSchema } from './schema';

const url = process.env.DATABASE_URL as string;
const pools: Pool[] = [];
function newPool(extra: { max?: number; application_name?: string; connectionString?: string } = {}): Pool {
  const pool = new Pool({ connectionString: url, max: 20, ...extra });
  pool.on('error', () => undefined); // idle clients killed by the tests below
  pools.push(pool);
  return pool;
}
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

/** Calls append_events inside an explicit transaction on its own connection and leaves it open. */
async function openTransactionAppend(
  stream: string,
  events: EventToAppend[],
  expected: ExpectedRevision,
): Promise<OpenAppend> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT * FROM append_events($1, $2, $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])', [
    stream,
    toJsonExpectedRevision(expected),
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map((e) => JSON.stringify(e.data)),
    events.map((e) => JSON.stringify(e.metadata)),
  ]);
  const finish = (sql: string) => async () => {
    await client.query(sql);
    await client.end();
  };
  return { commit: finish('COMMIT'), rollback: finish('ROLLBACK') };
}

runEventStoreContract('postgres', () => createEventStore({ pool: newPool() }), { openTransactionAppend });

describe('postgres event store: failure modes', () => {
  let pool: Pool;
  let store: PostgresEventStore;
  beforeAll(async () => {
    pool = newPool();
    await ensureSchema(pool);
    store = new PostgresEventStore(pool, { pollIntervalMs: 200 });
  });
  afterAll(() => store.close());

  it('reports an unreachable server as StoreUnavailableError', async () => {
    const dead = new PostgresEventStore(
      newPool({ max: 1, connectionString: 'postgres://nobody:none@127.0.0.1:1/none' }),
    );
    await expect(dead.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(dead.appendToStream('s', [newEvent()], 'any')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(dead.readAll()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('refuses a partial reuse of event ids and never leaks the global lock', async () => {
    const stream = uniqueStream('reuse');
    const [a, b] = newEvents(2);
    await store.appendToStream(stream, [a, b], 'no_stream');
    await expect(store.appendToStream(stream, [a, newEvent()], 'no_stream')).rejects.toBeInstanceOf(
      IdempotencyConflictError,
    );
    // The insert itself fails here (id stored on another stream), inside the locked block.
    await expect(store.appendToStream(uniqueStream('other'), [newEvent(), b], 'any')).rejects.toBeInstanceOf(
      IdempotencyConflictError,
    );
    // A leak is the session lock still held by a connection back in its pool (not running a
    // statement); other suites' appends in flight hold it briefly while active.
    expect(await leakedGlobalLocks(pool)).toBe(0);
  });

  it('compares expected revisions beyond int8 and rejects impossible ones', async () => {
    const stream = uniqueStream('int8');
    await store.appendToStream(stream, [newEvent()], 'no_stream');
    const error = await store.appendToStream(stream, [newEvent()], 2n ** 63n + 5n).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect((error as WrongExpectedRevisionError).actual).toBe(0n);
    await expect(store.appendToStream(stream, [newEvent()], 2n ** 64n)).rejects.toBeInstanceOf(RangeError);
    await expect(store.appendToStream(stream, [newEvent()], -1n)).rejects.toBeInstanceOf(RangeError);
  });

  it('hands out positions in transaction-id order under concurrent appends', async () => {
    const marker = await store.appendToStream(uniqueStream('xid-order'), [newEvent()], 'no_stream');
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        const stream = uniqueStream('xid-order');
        for (let i = 0; i < 15; i++)
          await store.appendToStream(stream, newEvents(1 + (i % 3)), i === 0 ? 'no_stream' : 'any');
      }),
    );
    expect(await xidOrderInversions(pool, marker.position)).toBe(0);
  });

  it('refuses append_events after an earlier write in the same transaction', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      const sql = `SELECT * FROM append_events($1, 'any', ARRAY[$2]::uuid[], ARRAY['T'], ARRAY['{}']::jsonb[], ARRAY['{}']::jsonb[])`;
      await expect(client.query(sql, [uniqueStream('misuse'), randomUUID()])).rejects.toMatchObject({ code: 'ESUSE' });
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('creates the schema concurrently from several processes', async () => {
    await expect(
      Promise.all([ensureSchema(pool), ensureSchema(newPool()), ensureSchema(newPool())]),
    ).resolves.toBeDefined();
  });

  it('pages $all in primary-key order: an index range scan needs no sort', async () => {
    // The planner may still prefer a bitmap scan on a tiny test table; what the query
    // controls is that the index can serve the ORDER BY (no Sort node once it is used).
    const sql = READ_ALL_SQL.replace('$1', '0').replace('$2', '100');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`);
      const plan = JSON.stringify(rows[0]['QUERY PLAN']);
      expect(plan).toContain('"Index Name":"events_pkey"');
      expect(plan).not.toContain('"Node Type":"Sort"');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
