import type { Pool } from 'pg';
import { APPEND_FUNCTIONS, GLOBAL_ORDER_LOCK, SQLSTATE } from './append-functions';

export { GLOBAL_ORDER_LOCK, SQLSTATE };

/**
 * Schema of the Postgres event store. Every statement is idempotent; `ensureSchema` runs
 * them under a transaction-scoped advisory lock so that several processes starting at
 * once do not race on CREATE OR REPLACE FUNCTION ("tuple concurrently updated").
 *
 * NOTE: stored format. Changing a column or the function signature needs a migration.
 * The ordering argument lives in docs/decisions/0001-postgres-event-store-ordering.md.
 */

const SCHEMA_LOCK: readonly [number, number] = [GLOBAL_ORDER_LOCK[0], 2];

export const NOTIFY_CHANNEL = 'event_store_appended';

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

/** Create the tables and the append functions if missing. Safe to run concurrently. */
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
    await client.query(APPEND_FUNCTIONS);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
