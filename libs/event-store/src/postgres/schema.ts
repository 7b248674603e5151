import type { Pool } from 'pg';

/**
 * Schema of the Postgres event store. Every statement is idempotent; `ensureSchema` runs
 * them under a transaction-scoped advisory lock so that several processes starting at
 * once do not race on CREATE OR REPLACE FUNCTION ("tuple concurrently updated").
 *
 * NOTE: stored format. Changing a column or the function signature needs a migration.
 * The ordering argument lives in docs/decisions/0001-postgres-event-store-ordering.md.
 */

/** Two-int4 advisory key space: cannot collide with the int8 per-stream keys. */
export const GLOBAL_ORDER_LOCK: readonly [number, number] = [0x45565354, 1]; // 'EVST', 1
const SCHEMA_LOCK: readonly [number, number] = [0x45565354, 2];

export const NOTIFY_CHANNEL = 'event_store_appended';

/** Custom SQLSTATEs raised by append_events and mapped by the adapter. */
export const SQLSTATE = {
  wrongExpectedRevision: 'ESWER',
  idempotencyConflict: 'ESIDC',
  misuse: 'ESUSE',
} as const;

const TABLES = `
-- NOTE: CACHE 1 is required: values must be handed out in call order across sessions.
CREATE SEQUENCE IF NOT EXISTS events_global_position_seq AS bigint CACHE 1;
CREATE TABLE IF NOT EXISTS events (
  global_position bigint      NOT NULL DEFAULT nextval('events_global_position_seq'),
  stream_id       text        NOT NULL,
  stream_revision bigint      NOT NULL,
  event_id        uuid        NOT NULL,
  event_type      text        NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  transaction_id  xid8        NOT NULL,
  CONSTRAINT events_pkey PRIMARY KEY (global_position),
  CONSTRAINT events_event_id_key UNIQUE (event_id),
  CONSTRAINT events_stream_revision_key UNIQUE (stream_id, stream_revision)
);
ALTER SEQUENCE events_global_position_seq OWNED BY events.global_position;
`;

/**
 * One round trip per append. Order of operations matters:
 * 1. per-stream transaction lock, then a fresh READ COMMITTED snapshot of the stream;
 * 2. idempotent replay / expected-revision checks (nothing here assigns an xid);
 * 3. under the global session lock: assign the xid, insert (positions from the sequence),
 *    unlock. Positions are therefore handed out in xid order, which is what lets readers
 *    filter on `transaction_id < snapshot xmin` and page by position without skipping.
 * The commit (WAL flush) happens after the function returns, outside the global lock.
 * Subscribers are woken by the adapter after the commit (append-notifier.ts).
 */
const APPEND_FUNCTION = `
CREATE OR REPLACE FUNCTION append_events(
  p_stream text, p_expected text, p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[])
RETURNS TABLE (next_revision bigint, last_position bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_count int := coalesce(array_length(p_ids, 1), 0);
  v_current bigint;
  v_first bigint;
  v_first_stream text;
  v_matched int;
  v_position bigint;
  v_xid xid8;
BEGIN
  IF v_count = 0 OR v_count <> array_length(p_types, 1) OR v_count <> array_length(p_data, 1)
     OR v_count <> array_length(p_metadata, 1) THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}', MESSAGE = 'append_events needs equally long, non-empty arrays';
  END IF;
  -- A transaction that already holds an xid would get positions out of xid order.
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}',
      MESSAGE = 'append_events must be the first write of its transaction';
  END IF;
  -- Each statement below must see commits made by the previous holder of the stream lock.
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}', MESSAGE = 'append_events needs READ COMMITTED';
  END IF;

  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 0));
  SELECT max(e.stream_revision) INTO v_current FROM events e WHERE e.stream_id = p_stream;

  SELECT e.stream_id, e.stream_revision INTO v_first_stream, v_first FROM events e WHERE e.event_id = p_ids[1];
  IF FOUND AND v_first_stream = p_stream AND (p_expected = 'any'
      OR (p_expected = 'no_stream' AND v_first = 0)
      OR (p_expected = 'stream_exists' AND v_first > 0)
      OR (p_expected ~ '^[0-9]+$' AND p_expected::numeric = v_first - 1)) THEN
    SELECT count(*), max(e.global_position) INTO v_matched, v_position
      FROM unnest(p_ids) WITH ORDINALITY AS b(id, ord)
      JOIN events e ON e.event_id = b.id AND e.stream_id = p_stream AND e.stream_revision = v_first + b.ord - 1;
    IF v_matched <> v_count THEN
      RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.idempotencyConflict}',
        MESSAGE = format('event ids on %s were already used by a different batch', p_stream);
    END IF;
    RETURN QUERY SELECT v_first + v_count - 1, v_position;
    RETURN;
  END IF;

  IF (p_expected = 'no_stream' AND v_current IS NOT NULL)
     OR (p_expected = 'stream_exists' AND v_current IS NULL)
     OR (p_expected ~ '^[0-9]+$' AND v_current::numeric IS DISTINCT FROM p_expected::numeric) THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.wrongExpectedRevision}',
      MESSAGE = format('wrong expected revision on %s: expected %s, actual %s', p_stream, p_expected, coalesce(v_current::text, 'no_stream')),
      DETAIL = coalesce(v_current::text, 'no_stream');
  ELSIF p_expected NOT IN ('any', 'no_stream', 'stream_exists') AND p_expected !~ '^[0-9]+$' THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}', MESSAGE = format('invalid expected revision %s', p_expected);
  END IF;

  BEGIN
    -- Inside the block: a cancel while waiting here still runs the handler (unlock of a lock not held only warns).
    PERFORM pg_advisory_lock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
    v_xid := pg_current_xact_id(); -- the first xid assignment of this transaction
    WITH ins AS (
      INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, transaction_id)
      SELECT p_stream, coalesce(v_current, -1) + b.ord, b.id, b.t, b.d, b.m, v_xid
        FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS b(id, t, d, m, ord)
       ORDER BY b.ord
      RETURNING global_position)
    SELECT max(global_position) INTO v_position FROM ins;
    PERFORM pg_advisory_unlock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
  EXCEPTION WHEN OTHERS OR query_canceled THEN
    -- A session lock survives the rollback: leaking it would stall every append on this pooled connection.
    PERFORM pg_advisory_unlock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
    RAISE;
  END;

  -- No pg_notify here: it would serialise commits (see append-notifier.ts).
  RETURN QUERY SELECT coalesce(v_current, -1) + v_count, v_position;
END
$fn$;
`;

/** Create the tables and the append function if missing. Safe to run concurrently. */
export async function ensureSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  // A server that goes away raises 'error' on a borrowed client: without a listener it would crash the process.
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [SCHEMA_LOCK[0], SCHEMA_LOCK[1]]);
    await client.query(TABLES);
    await client.query(APPEND_FUNCTION);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
