/**
 * The append functions of the Postgres event store (docs/decisions/0001 and 0047). Every
 * statement is idempotent (CREATE OR REPLACE); `ensureSchema` runs them.
 *
 * NOTE: stored format. Changing a signature needs a migration.
 */

/** Two-int4 advisory key space: cannot collide with the int8 per-stream keys. */
export const GLOBAL_ORDER_LOCK: readonly [number, number] = [0x45565354, 1]; // 'EVST', 1

/** Custom SQLSTATEs raised by the append functions and mapped by the adapter. */
export const SQLSTATE = {
  wrongExpectedRevision: 'ESWER',
  idempotencyConflict: 'ESIDC',
  misuse: 'ESUSE',
} as const;

/**
 * The appends of one or several streams: one call, one transaction, one round trip (the adapter
 * sends together what callers append while its previous call is in flight: group commit). Order of
 * operations (docs/decisions/0001):
 * 1. the streams' transaction locks, in key order (two calls never wait on each other in a cycle),
 *    then, on fresh READ COMMITTED snapshots, each stream's idempotent-replay and expected-revision
 *    checks (nothing here assigns an xid);
 * 2. under the global session lock: assign the xid, insert the events of every append that passed
 *    its checks (in call order, each stream's revisions following its own), unlock. Positions are
 *    therefore handed out in xid order, which is what lets readers filter on
 *    `transaction_id < snapshot xmin` and page by position without skipping.
 * The commit (WAL flush) happens after the function returns, outside the global lock.
 * Each append gets its own outcome row, in call order, instead of an exception: `appended` and
 * `replayed` (with next_revision and last_position), `wrong_expected_revision` (detail: the actual
 * revision or `no_stream`), `idempotency_conflict` (detail: the message). An error (an event id
 * stored elsewhere, a lost connection) rolls back every append of the call; the adapter then sends
 * each alone so that each gets its own answer. p_counts gives each append's number of events in the
 * flat event arrays; the streams must be distinct.
 */
const APPEND_MANY_FUNCTION = `
CREATE OR REPLACE FUNCTION append_events_many(
  p_streams text[], p_expected text[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[])
RETURNS TABLE (outcome text, next_revision bigint, last_position bigint, detail text)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  -- No initial values: each is an expression, and the short path below needs none of them.
  v_items int;
  v_total int;
  v_key bigint;
  v_start int[];
  v_item_of int[];
  v_current bigint[];
  v_outcome text[];
  v_next bigint[];
  v_last bigint[];
  v_detail text[];
  v_first bigint;
  v_first_stream text;
  v_matched int;
  v_position bigint;
  v_offset int;
  v_pending boolean;
  v_xid xid8;
  v_row record;
  v_keys bigint[];
  v_distinct int;
  v_sum bigint;
  v_counted int;
  v_fits boolean;
  v_last_position bigint;
BEGIN
  -- The short path: one stream, well-formed arrays, an event id not stored yet and a valid expected
  -- revision (how appends arrive one at a time). Same checks, locks, order and outcomes as below with
  -- a third of the expressions: plpgsql prepares each expression a call evaluates once per
  -- transaction, and the general path's arrays, loops and aggregate cost a lone append about a third
  -- of the function's time (docs/decisions/0056). Anything else (a replay, a conflict, misuse) takes
  -- the general path, which answers it (taking the stream's lock again is a no-op).
  IF array_length(p_streams, 1) = 1 AND array_length(p_expected, 1) = 1 AND array_length(p_counts, 1) = 1
     AND p_counts[1] >= 1 AND array_length(p_ids, 1) = p_counts[1] AND array_length(p_types, 1) = p_counts[1]
     AND array_length(p_data, 1) = p_counts[1] AND array_length(p_metadata, 1) = p_counts[1]
     AND p_streams[1] IS NOT NULL AND pg_current_xact_id_if_assigned() IS NULL
     AND current_setting('transaction_isolation') = 'read committed' THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_streams[1], 0));
    SELECT (SELECT max(e.stream_revision) FROM events e WHERE e.stream_id = p_streams[1]), f.stream_id
      INTO v_position, v_first_stream
      FROM (SELECT p_ids[1] AS id) one LEFT JOIN events f ON f.event_id = one.id;
    -- NULL: an expected revision the general path refuses as misuse.
    v_fits := CASE p_expected[1]
      WHEN 'any' THEN true
      WHEN 'no_stream' THEN v_position IS NULL
      WHEN 'stream_exists' THEN v_position IS NOT NULL
      ELSE CASE WHEN p_expected[1] ~ '^[0-9]+$' THEN v_position::numeric IS NOT DISTINCT FROM p_expected[1]::numeric END
    END;
    IF v_first_stream IS NULL AND v_fits IS NOT NULL THEN
      IF NOT v_fits THEN
        RETURN QUERY SELECT 'wrong_expected_revision'::text, NULL::bigint, NULL::bigint, coalesce(v_position::text, 'no_stream');
        RETURN;
      END IF;
      BEGIN
        PERFORM pg_advisory_lock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
        v_xid := pg_current_xact_id();
        WITH ins AS (
          INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, transaction_id)
          SELECT p_streams[1], coalesce(v_position, -1) + b.ord, b.id, b.t, b.d, b.m, v_xid
            FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS b(id, t, d, m, ord)
           ORDER BY b.ord
          RETURNING global_position)
        SELECT max(ins.global_position) INTO v_last_position FROM ins;
        PERFORM pg_advisory_unlock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
      EXCEPTION WHEN OTHERS OR query_canceled THEN
        PERFORM pg_advisory_unlock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
        RAISE;
      END;
      RETURN QUERY SELECT 'appended'::text, coalesce(v_position, -1) + p_counts[1], v_last_position, NULL::text;
      RETURN;
    END IF;
  END IF;

  v_items := coalesce(array_length(p_streams, 1), 0);
  v_total := coalesce(array_length(p_ids, 1), 0);
  v_start := '{}';
  v_item_of := '{}';
  v_current := '{}';
  v_outcome := '{}';
  -- Sized up front: the outcome rows are these arrays read side by side (unnest), and an array first
  -- assigned at a later index would start there (v_outcome is assigned at every index, in order).
  v_next := array_fill(NULL::bigint, ARRAY[v_items]);
  v_last := array_fill(NULL::bigint, ARRAY[v_items]);
  v_detail := array_fill(NULL::text, ARRAY[v_items]);
  v_offset := 1;
  v_pending := false;
  v_sum := 0;
  v_counted := 0;
  -- The checks are plain expressions and one query (each statement of a function costs its executor start-up).
  IF v_items > 0 AND v_items = coalesce(array_length(p_counts, 1), 0) THEN
    FOR i IN 1..v_items LOOP
      EXIT WHEN p_counts[i] IS NULL OR p_counts[i] < 1;
      v_sum := v_sum + p_counts[i];
      v_counted := i;
    END LOOP;
  END IF;
  SELECT array_agg(DISTINCT k ORDER BY k), count(DISTINCT s) INTO v_keys, v_distinct
    FROM (SELECT s, hashtextextended(s, 0) AS k FROM unnest(p_streams) s) t;
  IF v_items = 0 OR v_items <> coalesce(array_length(p_expected, 1), 0) OR v_items <> coalesce(array_length(p_counts, 1), 0)
     OR v_counted <> v_items OR v_total <> v_sum
     OR v_total <> coalesce(array_length(p_types, 1), 0) OR v_total <> coalesce(array_length(p_data, 1), 0)
     OR v_total <> coalesce(array_length(p_metadata, 1), 0) OR v_items <> v_distinct THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}',
      MESSAGE = 'append_events_many needs distinct streams and equally long arrays with at least one event per stream';
  END IF;
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}',
      MESSAGE = 'append_events_many must be the first write of its transaction';
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}', MESSAGE = 'append_events_many needs READ COMMITTED';
  END IF;

  FOREACH v_key IN ARRAY v_keys LOOP
    PERFORM pg_advisory_xact_lock(v_key);
  END LOOP;

  FOR i IN 1..v_items LOOP
    v_start[i] := v_offset;
    FOR j IN v_offset..v_offset + p_counts[i] - 1 LOOP
      v_item_of[j] := i;
    END LOOP;
    v_offset := v_offset + p_counts[i];
    -- One statement: the stream's revision, and where the append's first event id is stored if it is.
    SELECT (SELECT max(e.stream_revision) FROM events e WHERE e.stream_id = p_streams[i]), f.stream_id, f.stream_revision
      INTO v_position, v_first_stream, v_first
      FROM (SELECT p_ids[v_start[i]] AS id) one LEFT JOIN events f ON f.event_id = one.id;
    v_current[i] := v_position;
    IF v_first_stream = p_streams[i] AND (p_expected[i] = 'any'
        OR (p_expected[i] = 'no_stream' AND v_first = 0)
        OR (p_expected[i] = 'stream_exists' AND v_first > 0)
        OR (p_expected[i] ~ '^[0-9]+$' AND p_expected[i]::numeric = v_first - 1)) THEN
      SELECT count(*), max(e.global_position) INTO v_matched, v_position
        FROM unnest(p_ids[v_start[i]:v_start[i] + p_counts[i] - 1]) WITH ORDINALITY AS b(id, ord)
        JOIN events e ON e.event_id = b.id AND e.stream_id = p_streams[i] AND e.stream_revision = v_first + b.ord - 1;
      IF v_matched <> p_counts[i] THEN
        v_outcome[i] := 'idempotency_conflict';
        v_detail[i] := format('event ids on %s were already used by a different batch', p_streams[i]);
      ELSE
        v_outcome[i] := 'replayed';
        v_next[i] := v_first + p_counts[i] - 1;
        v_last[i] := v_position;
      END IF;
    ELSIF p_expected[i] NOT IN ('any', 'no_stream', 'stream_exists') AND p_expected[i] !~ '^[0-9]+$' THEN
      RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.misuse}', MESSAGE = format('invalid expected revision %s', p_expected[i]);
    ELSIF (p_expected[i] = 'no_stream' AND v_current[i] IS NOT NULL)
       OR (p_expected[i] = 'stream_exists' AND v_current[i] IS NULL)
       OR (p_expected[i] ~ '^[0-9]+$' AND v_current[i]::numeric IS DISTINCT FROM p_expected[i]::numeric) THEN
      v_outcome[i] := 'wrong_expected_revision';
      v_detail[i] := coalesce(v_current[i]::text, 'no_stream');
    ELSE
      v_outcome[i] := 'appended';
      v_next[i] := coalesce(v_current[i], -1) + p_counts[i];
      v_pending := true;
    END IF;
  END LOOP;

  IF v_pending THEN
    BEGIN
      -- Inside the block: a cancel while waiting here still runs the handler (unlock of a lock not held only warns).
      PERFORM pg_advisory_lock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
      v_xid := pg_current_xact_id(); -- the first xid assignment of this transaction
      FOR v_row IN
        WITH ins AS (
          INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, transaction_id)
          SELECT p_streams[v_item_of[b.ord]], coalesce(v_current[v_item_of[b.ord]], -1) + b.ord - v_start[v_item_of[b.ord]] + 1,
                 b.id, b.t, b.d, b.m, v_xid
            FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS b(id, t, d, m, ord)
           WHERE v_outcome[v_item_of[b.ord]] = 'appended'
           ORDER BY b.ord
          RETURNING stream_id, global_position)
        SELECT ins.stream_id, max(ins.global_position) AS position FROM ins GROUP BY ins.stream_id
      LOOP
        v_last[array_position(p_streams, v_row.stream_id)] := v_row.position;
      END LOOP;
      PERFORM pg_advisory_unlock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
    EXCEPTION WHEN OTHERS OR query_canceled THEN
      -- A session lock survives the rollback: leaking it would stall every append on this pooled connection.
      PERFORM pg_advisory_unlock(${GLOBAL_ORDER_LOCK[0]}, ${GLOBAL_ORDER_LOCK[1]});
      RAISE;
    END;
  END IF;

  -- No pg_notify here: it would serialise commits (see append-notifier.ts).
  RETURN QUERY SELECT * FROM unnest(v_outcome, v_next, v_last, v_detail);
END
$fn$;
`;

/**
 * One stream's append as one call of append_events_many, its outcome raised as the adapter's
 * SQLSTATEs (for SQL callers; the adapter calls append_events_many). The commit (WAL flush) happens
 * after the function returns, outside the global lock; subscribers are woken by the adapter after
 * the commit (append-notifier.ts).
 */
const APPEND_ONE_FUNCTION = `
CREATE OR REPLACE FUNCTION append_events(
  p_stream text, p_expected text, p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[])
RETURNS TABLE (next_revision bigint, last_position bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_result record;
BEGIN
  SELECT * INTO v_result FROM append_events_many(ARRAY[p_stream], ARRAY[p_expected],
    ARRAY[coalesce(array_length(p_ids, 1), 0)], p_ids, p_types, p_data, p_metadata);
  IF v_result.outcome = 'wrong_expected_revision' THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.wrongExpectedRevision}',
      MESSAGE = format('wrong expected revision on %s: expected %s, actual %s', p_stream, p_expected, v_result.detail),
      DETAIL = v_result.detail;
  ELSIF v_result.outcome = 'idempotency_conflict' THEN
    RAISE EXCEPTION USING ERRCODE = '${SQLSTATE.idempotencyConflict}', MESSAGE = v_result.detail;
  END IF;
  RETURN QUERY SELECT v_result.next_revision, v_result.last_position;
END
$fn$;
`;

/** Both functions, in one script. */
export const APPEND_FUNCTIONS = APPEND_MANY_FUNCTION + APPEND_ONE_FUNCTION;
