import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { IdempotencyConflictError, WrongExpectedRevisionError } from '../errors';
import type { AppendResult } from '../event-store.port';
import { newEvent, newEvents, uniqueStream } from '../testing/contract-helpers';
import { leakedGlobalLocks, xidOrderInversions } from '../testing/postgres-checks';
import { PostgresEventStore } from './postgres-event-store';
import { ensureSchema } from './schema';

/**
 * Group commit (docs/decisions/0047): the appends a process makes while its previous call of
 * append_events_many is in flight go together in the next call, each with its own outcome.
 * Appends made in one tick are deterministic here: the first finds the slot free and goes alone,
 * the others wait for it and go together.
 */
const url = process.env.DATABASE_URL as string;
const pools: Pool[] = [];
function newPool(): Pool {
  const pool = new Pool({ connectionString: url, max: 8 });
  pools.push(pool);
  return pool;
}
let pool: Pool;
beforeAll(async () => {
  pool = newPool();
  await ensureSchema(pool);
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

/** A fresh store (its own call counts) on the shared pool, one call in flight (deterministic groups). */
function freshStore(): PostgresEventStore {
  return new PostgresEventStore(pool, { appendConcurrency: 1 });
}

const settled = (promise: Promise<AppendResult>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

describe('postgres event store: group commit', () => {
  it('sends the appends made while a call is in flight in one call, each with its own revision and position', async () => {
    const store = freshStore();
    const streams = Array.from({ length: 12 }, () => uniqueStream('group'));
    const results = await Promise.all(streams.map((stream) => store.appendToStream(stream, newEvents(2), 'no_stream')));
    expect(store.appendStats).toEqual({ calls: 2, appends: 12 });
    for (const [index, stream] of streams.entries()) {
      const stored = await store.readStream(stream);
      expect(stored.map((e) => e.revision)).toEqual([0n, 1n]);
      expect(results[index]).toEqual({ next_revision: 1n, position: stored[1].position });
    }
    // One call is one transaction: the eleven that went together share one transaction id.
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(DISTINCT transaction_id)::int AS n FROM events WHERE stream_id = ANY($1)',
      [streams.slice(1)],
    );
    expect(rows[0].n).toBe(1);
  });

  it('answers each append of one call with its own outcome: appended, replayed, wrong revision, idempotency conflict', async () => {
    const store = freshStore();
    const [wrong, replay, conflict, fresh] = ['wrong', 'replay', 'conflict', 'fresh'].map(uniqueStream);
    const replayed = newEvents(2);
    const stored = newEvent();
    await store.appendToStream(wrong, [newEvent()], 'no_stream');
    const first = await store.appendToStream(replay, replayed, 'no_stream');
    await store.appendToStream(conflict, [stored], 'no_stream');
    const before = store.appendStats.calls;

    const outcomes = await Promise.all([
      settled(store.appendToStream(uniqueStream('busy'), [newEvent()], 'no_stream')),
      settled(store.appendToStream(wrong, [newEvent()], 5n)),
      settled(store.appendToStream(replay, replayed, 'no_stream')),
      settled(store.appendToStream(conflict, [stored, newEvent()], 'no_stream')),
      settled(store.appendToStream(fresh, [newEvent()], 'no_stream')),
    ]);

    expect(store.appendStats.calls - before).toBe(2);
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.any(WrongExpectedRevisionError) });
    expect((outcomes[1] as { error: WrongExpectedRevisionError }).error).toMatchObject({ stream: wrong, actual: 0n });
    expect(outcomes[2]).toEqual({ ok: true, value: first });
    expect(outcomes[3]).toMatchObject({ ok: false, error: expect.any(IdempotencyConflictError) });
    expect(outcomes[4]).toMatchObject({ ok: true, value: { next_revision: 0n } });
    // The refused ones wrote nothing.
    expect(await store.readStream(wrong)).toHaveLength(1);
    expect(await store.readStream(replay)).toHaveLength(2);
    expect(await store.readStream(conflict)).toHaveLength(1);
    expect(await store.readStream(fresh)).toHaveLength(1);
  });

  it('retries a call that rolled back append by append: the others land, the faulty one gets its error, no lock leaks', async () => {
    const store = freshStore();
    const taken = newEvent();
    await store.appendToStream(uniqueStream('owner'), [taken], 'no_stream');
    const [good1, bad, good2] = ['good', 'bad', 'good'].map(uniqueStream);
    const before = store.appendStats.calls;

    const outcomes = await Promise.all([
      settled(store.appendToStream(uniqueStream('busy'), [newEvent()], 'no_stream')),
      settled(store.appendToStream(good1, [newEvent()], 'no_stream')),
      // Its event id is stored on another stream: the insert fails and the whole call rolls back.
      settled(store.appendToStream(bad, [newEvent(), taken], 'any')),
      settled(store.appendToStream(good2, newEvents(3), 'no_stream')),
    ]);

    expect(store.appendStats.calls - before).toBe(1 + 1 + 3);
    expect(outcomes[1]).toMatchObject({ ok: true, value: { next_revision: 0n } });
    expect(outcomes[2]).toMatchObject({ ok: false, error: expect.any(IdempotencyConflictError) });
    expect(outcomes[3]).toMatchObject({ ok: true, value: { next_revision: 2n } });
    expect(await store.readStream(bad)).toEqual([]);
    expect(await leakedGlobalLocks(pool)).toBe(0);
  });

  it('sends two appends of one stream made at once in two calls, in the order they were made', async () => {
    const store = freshStore();
    const stream = uniqueStream('twice');
    const [a, b] = newEvents(2);
    const results = await Promise.all([
      store.appendToStream(stream, [a], 'no_stream'),
      store.appendToStream(stream, [b], 0n),
    ]);
    expect(results.map((r) => r.next_revision)).toEqual([0n, 1n]);
    expect((await store.readStream(stream)).map((e) => e.id)).toEqual([a.id, b.id]);
  });

  it('keeps positions in transaction-id order while two processes group their appends', async () => {
    const stores = [new PostgresEventStore(newPool()), new PostgresEventStore(newPool())];
    const marker = await stores[0].appendToStream(uniqueStream('xid-order'), [newEvent()], 'no_stream');
    await Promise.all(
      stores.flatMap((store) =>
        Array.from({ length: 8 }, async () => {
          const stream = uniqueStream('xid-order');
          for (let i = 0; i < 10; i++)
            await store.appendToStream(stream, newEvents(1 + (i % 3)), i === 0 ? 'no_stream' : 'any');
        }),
      ),
    );
    expect(stores.every((store) => store.appendStats.calls < store.appendStats.appends)).toBe(true);
    expect(await xidOrderInversions(pool, marker.position)).toBe(0);
  });

  it('append_events_many refuses a stream named twice and a transaction that already wrote', async () => {
    const sql = `SELECT * FROM append_events_many($1::text[], ARRAY['any', 'any'], ARRAY[1, 1],
      ARRAY[$2, $3]::uuid[], ARRAY['T', 'T'], ARRAY['{}', '{}']::jsonb[], ARRAY['{}', '{}']::jsonb[])`;
    const stream = uniqueStream('misuse');
    await expect(pool.query(sql, [[stream, stream], randomUUID(), randomUUID()])).rejects.toMatchObject({
      code: 'ESUSE',
    });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      await expect(
        client.query(sql, [[stream, uniqueStream('misuse')], randomUUID(), randomUUID()]),
      ).rejects.toMatchObject({ code: 'ESUSE' });
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    expect(await freshStore().readStream(stream)).toEqual([]);
  });

  it('append_events_many refuses arrays that do not line up, a count below one, a missing stream; writes nothing', async () => {
    const call = `SELECT * FROM append_events_many($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[],
      $6::jsonb[], $7::jsonb[])`;
    const [a, b] = [uniqueStream('misuse-a'), uniqueStream('misuse-b')];
    const ids = [randomUUID(), randomUUID()];
    const good = [[a, b], ['any', 'any'], [1, 1], ids, ['T', 'T'], ['{}', '{}'], ['{}', '{}']] as const;
    const bad: Array<[string, unknown[]]> = [
      ['no stream at all', [[], [], [], [], [], [], []]],
      ['one expected revision too few', [good[0], ['any'], ...good.slice(2)]],
      ['one count too many', [good[0], good[1], [1, 1, 1], ...good.slice(3)]],
      ['a count of zero', [good[0], good[1], [0, 2], ...good.slice(3)]],
      ['a null count', [good[0], good[1], [null, 2], ...good.slice(3)]],
      ['counts that add up to more events than given', [good[0], good[1], [1, 2], ...good.slice(3)]],
      ['one event type too few', [...good.slice(0, 4), ['T'], ...good.slice(5)]],
      ['one data too few', [...good.slice(0, 5), ['{}'], good[6]]],
      ['one metadata too few', [...good.slice(0, 6), ['{}']]],
      ['a null stream', [[a, null], ...good.slice(1)]],
    ];
    const answers: Array<[string, string]> = [];
    for (const [why, params] of bad) {
      answers.push([
        why,
        await pool.query(call, params).then(
          () => 'accepted',
          (error: { code?: string }) => `${error.code}`,
        ),
      ]);
    }
    expect(answers).toEqual(bad.map(([why]) => [why, 'ESUSE']));
    expect(await freshStore().readStream(a)).toEqual([]);
    expect(await leakedGlobalLocks(pool)).toBe(0);
  });

  it('append_events_many answers one row per append in call order, a refused last append included', async () => {
    const store = freshStore();
    const [fresh, wrong] = [uniqueStream('rows-fresh'), uniqueStream('rows-wrong')];
    await store.appendToStream(wrong, [newEvent()], 'no_stream');
    const { rows } = await pool.query(
      `SELECT outcome, next_revision::text, last_position::text, detail FROM append_events_many($1::text[], $2::text[],
        ARRAY[1, 1], $3::uuid[], ARRAY['T', 'T'], ARRAY['{}', '{}']::jsonb[], ARRAY['{}', '{}']::jsonb[])`,
      [
        [fresh, wrong],
        ['no_stream', '7'],
        [randomUUID(), randomUUID()],
      ],
    );
    const [stored] = await store.readStream(fresh);
    expect(rows).toEqual([
      { outcome: 'appended', next_revision: '0', last_position: stored.position.toString(), detail: null },
      { outcome: 'wrong_expected_revision', next_revision: null, last_position: null, detail: '0' },
    ]);
  });

  it('answers a lone append (its short path) as it answers the same append beside another stream (the general path)', async () => {
    // The function takes a short path for a call of one append (docs/decisions/0056); a call of two
    // takes the general one. The same steps on two families of streams, alone and each beside a fresh
    // stream's append, must get the same outcome, revision and detail, and positions that are the
    // stored events' own.
    const call = `SELECT outcome, next_revision::text AS next, last_position::text AS last, detail
      FROM append_events_many($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[])`;
    const id = (family: string, name: string) =>
      ids.get(`${family}:${name}`) ?? ids.set(`${family}:${name}`, randomUUID()).get(`${family}:${name}`)!;
    const ids = new Map<string, string>();
    const families = { alone: uniqueStream('short'), beside: uniqueStream('general') };
    const steps: Array<[stream: 's' | 't', expected: string, events: string[]]> = [
      ['s', 'no_stream', ['a']],
      ['s', 'no_stream', ['b0']],
      ['s', '0', ['b', 'c']],
      ['s', '5', ['x']],
      ['t', 'stream_exists', ['t0']],
      ['t', 'any', ['t1']],
      ['s', '0', ['b', 'c']], // a retry: replayed
      ['s', '0', ['b', 'd']], // the same first id, another batch: a conflict
      ['s', '99999999999999999999', ['y']],
      ['s', 'banana', ['z']], // misuse
      ['s', 'any', ['t1']], // an event id stored in another stream
      ['s', 'any', ['e', 'a']], // the second one stored already
      ['s', '02', ['f']], // digits compared as numbers
      ['t', '0', ['g', 'h', 'i']],
    ];
    const answers: Record<keyof typeof families, unknown[]> = { alone: [], beside: [] };
    for (const [family, base] of Object.entries(families) as Array<[keyof typeof families, string]>) {
      for (const [i, [which, expected, events]] of steps.entries()) {
        const stream = `${base}-${which}`;
        const own = events.map((name) => id(family, name));
        const params: unknown[][] = [
          [stream],
          [expected],
          [events.length],
          own,
          events.map(() => 'T'),
          events.map(() => '{}'),
          events.map(() => '{}'),
        ];
        if (family === 'beside') {
          params[0].push(`${base}-other-${i}`);
          params[1].push('no_stream');
          params[2].push(1);
          params[3].push(randomUUID());
          for (const k of [4, 5, 6]) params[k].push(k === 4 ? 'T' : '{}');
        }
        const answer = await pool.query(call, params).then(
          ({ rows }) => rows[0] as { outcome: string; next: string | null; last: string | null; detail: string | null },
          (error: { code?: string }) => ({ error: error.code }),
        );
        if ('outcome' in answer && answer.last !== null) {
          const stored = await freshStore().readStream(stream);
          const ours = stored.filter((event) => own.includes(event.id));
          expect(answer.last).toBe(ours[ours.length - 1]?.position.toString());
        }
        answers[family].push(
          'outcome' in answer
            ? {
                ...answer,
                last: answer.last === null ? null : 'stored',
                detail: answer.detail?.split(base).join('…') ?? null,
              }
            : answer,
        );
      }
    }
    expect(answers.alone).toEqual(answers.beside);
    expect(
      answers.alone.map(
        (answer) => (answer as { outcome?: string; error?: string }).outcome ?? (answer as { error: string }).error,
      ),
    ).toEqual([
      'appended',
      'wrong_expected_revision',
      'appended',
      'wrong_expected_revision',
      'wrong_expected_revision',
      'appended',
      'replayed',
      'idempotency_conflict',
      'wrong_expected_revision',
      'ESUSE',
      '23505',
      '23505',
      'appended',
      'appended',
    ]);
    expect(await leakedGlobalLocks(pool)).toBe(0);
  });
});
