import type { Pool } from 'pg';
import type {
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { IdempotencyConflictError, StoreUnavailableError, WrongExpectedRevisionError } from '../errors';
import { assertExpectedRevision, toJsonExpectedRevision } from '../revisions';
import { AppendBatcher, type AppendOutcome, type BatchedAppend } from './append-batcher';
import { AppendNotifier } from './append-notifier';
import { actualRevisionFromDetail, isUnavailable, mapPgError } from './pg-errors';
import { PostgresSubscription } from './postgres-subscription';

export interface PostgresEventStoreOptions {
  /** Poll interval of subscriptions when no notification arrives (lost NOTIFY, other writers). */
  pollIntervalMs?: number;
  /**
   * Append calls in flight at once (default 4): the appends made while that many are in flight go
   * together in the next call (group commit, append-batcher.ts, docs/decisions/0047).
   */
  appendConcurrency?: number;
}

interface PendingAppend extends BatchedAppend<AppendResult> {
  readonly expected: string;
  readonly batch: EventToAppend[];
}

interface AppendOutcomeRow {
  outcome: 'appended' | 'replayed' | 'wrong_expected_revision' | 'idempotency_conflict';
  next_revision: string | null;
  last_position: string | null;
  detail: string | null;
}

const INT8_MAX = (1n << 63n) - 1n;

/**
 * Columns as text: correct whatever int8/timestamptz parsers the caller's pool installed.
 * NOTE: filters and ORDER BY use the qualified `e.` columns; a bare name would bind to
 * the text alias and sort "10" before "9".
 */
const COLUMNS = `e.global_position::text AS global_position, e.stream_id, e.stream_revision::text AS stream_revision,
  e.event_id::text AS event_id, e.event_type, e.data, e.metadata,
  to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at`;

/**
 * The events' data and metadata go as one JSON array each (one JSON.stringify, no per-element
 * quoting into an array literal), split back into jsonb[] in call order.
 */
const APPEND_SQL = `SELECT outcome, next_revision::text AS next_revision, last_position::text AS last_position, detail
  FROM append_events_many($1::text[], $2::text[], $3::int[], $4::uuid[], $5::text[],
    ARRAY(SELECT d FROM jsonb_array_elements($6::jsonb) WITH ORDINALITY AS t(d, o) ORDER BY o),
    ARRAY(SELECT m FROM jsonb_array_elements($7::jsonb) WITH ORDINALITY AS t(m, o) ORDER BY o))`;

/**
 * Only events of transactions older than every running one: with positions handed out
 * in xid order (append_events), this makes the visible log a gap-free prefix.
 */
export const READ_ALL_SQL = `SELECT ${COLUMNS} FROM events e
  WHERE e.global_position > $1 AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY e.global_position LIMIT $2`;

const READ_FORWARDS_SQL = `SELECT ${COLUMNS} FROM events e
  WHERE e.stream_id = $1 AND e.stream_revision >= $2 ORDER BY e.stream_revision ASC LIMIT $3`;
const READ_BACKWARDS_SQL = `SELECT ${COLUMNS} FROM events e
  WHERE e.stream_id = $1 AND e.stream_revision <= $2 ORDER BY e.stream_revision DESC LIMIT $3`;

const READ_REVISIONS_SQL = `SELECT ${COLUMNS} FROM events e
  WHERE e.stream_id = $1 AND e.stream_revision = ANY($2::int8[]) ORDER BY e.stream_revision ASC`;

interface EventRow {
  global_position: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: StoredEvent['data'];
  metadata: StoredEvent['metadata'];
  recorded_at: string;
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.event_id,
    stream: row.stream_id,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    revision: BigInt(row.stream_revision),
    position: BigInt(row.global_position),
    recorded_at: row.recorded_at,
  };
}

function outcomeOf(append: PendingAppend, row: AppendOutcomeRow | undefined): AppendOutcome<AppendResult> {
  switch (row?.outcome) {
    case 'appended':
    case 'replayed':
      return { ok: true, value: { next_revision: BigInt(row.next_revision!), position: BigInt(row.last_position!) } };
    case 'wrong_expected_revision':
      return {
        ok: false,
        error: new WrongExpectedRevisionError(append.stream, append.expected, actualRevisionFromDetail(row.detail)),
      };
    case 'idempotency_conflict':
      return { ok: false, error: new IdempotencyConflictError(append.stream, row.detail ?? 'idempotency conflict') };
    default:
      return { ok: false, error: new Error(`append_events_many gave no outcome for ${append.stream}`) };
  }
}

function assertCount(maxCount: number | undefined): void {
  if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 0)) {
    throw new RangeError(`max_count must be a non-negative integer: ${maxCount}`);
  }
}

/** The embedded/default event store: one table, one PL/pgSQL append function (see schema.ts). */
export class PostgresEventStore implements EventStore {
  private readonly notifier: AppendNotifier;
  private readonly subscriptions = new Set<PostgresSubscription>();
  private readonly appends: AppendBatcher<AppendResult, PendingAppend>;
  private closed = false;

  /** The pool belongs to the caller: close() stops this store's work but does not end it. */
  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.notifier = new AppendNotifier(pool);
    this.appends = new AppendBatcher<AppendResult, PendingAppend>({
      send: (batch) => this.sendAppends(batch),
      // A call that rolled back can be sent again append by append; a lost connection cannot (unknown outcome).
      retryAlone: (error) => !isUnavailable(error),
      concurrency: options.appendConcurrency,
    });
  }

  appendToStream(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    try {
      this.assertOpen();
      assertExpectedRevision(expected);
      if (events.length === 0) throw new RangeError('appendToStream needs at least one event');
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) =>
      this.appends.add({
        stream,
        expected: toJsonExpectedRevision(expected),
        batch: events,
        events: events.length,
        resolve,
        reject,
      }),
    );
  }

  /** Calls and appends sent so far (group commit: their ratio is the mean number of appends per call). */
  get appendStats(): { calls: number; appends: number } {
    return { ...this.appends.stats };
  }

  /** One call of append_events_many for several streams; each append settles with its own outcome. */
  private async sendAppends(appends: PendingAppend[]): Promise<AppendOutcome<AppendResult>[]> {
    const events = appends.flatMap((a) => a.batch);
    const params = [
      appends.map((a) => a.stream),
      appends.map((a) => a.expected),
      appends.map((a) => a.events),
      events.map((e) => e.id),
      events.map((e) => e.type),
      JSON.stringify(events.map((e) => e.data)),
      JSON.stringify(events.map((e) => e.metadata ?? {})),
    ];
    let rows: AppendOutcomeRow[];
    try {
      // A named statement: parsed and planned once per connection.
      rows = (await this.pool.query<AppendOutcomeRow>({ name: 'append_events_many', text: APPEND_SQL, values: params }))
        .rows;
    } catch (error) {
      // A batch of one answers with its own error, a larger one is retried append by append (append-batcher.ts),
      // unless the store is unreachable: then every append of it has the same unknown outcome.
      if (appends.length === 1) throw mapPgError(error, { stream: appends[0].stream, expected: appends[0].expected });
      throw isUnavailable(error) ? mapPgError(error) : error;
    }
    this.notifier.poke();
    return appends.map((append, i) => outcomeOf(append, rows[i]));
  }
  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    assertCount(options.max_count);
    const backwards = options.direction === 'backwards';
    const from = options.from_revision ?? (backwards ? INT8_MAX : 0n);
    if (from < 0n) throw new RangeError(`from_revision must not be negative: ${from}`);
    if (options.max_count === 0 || (!backwards && from > INT8_MAX)) return [];
    const bound = from > INT8_MAX ? INT8_MAX : from;
    const sql = backwards ? READ_BACKWARDS_SQL : READ_FORWARDS_SQL;
    return this.query(sql, [stream, bound.toString(), options.max_count ?? null], stream);
  }

  async readRevisions(stream: string, revisions: readonly bigint[]): Promise<StoredEvent[]> {
    const wanted = [...new Set(revisions.filter((r) => r >= 0n && r <= INT8_MAX).map(String))];
    if (wanted.length === 0) return [];
    return this.query(READ_REVISIONS_SQL, [stream, wanted], stream);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    assertCount(options.max_count);
    if (options.max_count === 0) return [];
    return this.readPage(options.after_position ?? -1n, options.max_count ?? null);
  }

  async streamRevision(stream: string): Promise<bigint | null> {
    try {
      const { rows } = await this.pool.query<{ revision: string | null }>(
        'SELECT max(stream_revision)::text AS revision FROM events WHERE stream_id = $1',
        [stream],
      );
      return rows[0].revision === null ? null : BigInt(rows[0].revision);
    } catch (error) {
      throw mapPgError(error, { stream });
    }
  }

  async headPosition(): Promise<bigint | null> {
    try {
      const { rows } = await this.pool.query<{ position: string | null }>(
        'SELECT max(global_position)::text AS position FROM events',
      );
      return rows[0].position === null ? null : BigInt(rows[0].position);
    } catch (error) {
      throw mapPgError(error);
    }
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const subscription = new PostgresSubscription(
      {
        pool: this.pool,
        readPage: (after, limit) => this.readPage(after, limit),
        pollIntervalMs: this.options.pollIntervalMs ?? 300,
        onStopped: (s) => this.subscriptions.delete(s),
      },
      options,
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<void> {
    try {
      await this.pool.query('SELECT 1');
    } catch (error) {
      throw mapPgError(error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.notifier.close();
  }

  private readPage(after: bigint, limit: number | null): Promise<StoredEvent[]> {
    if (after > INT8_MAX) return Promise.resolve([]);
    return this.query(READ_ALL_SQL, [after.toString(), limit]);
  }

  private async query(sql: string, params: unknown[], stream?: string): Promise<StoredEvent[]> {
    try {
      const { rows } = await this.pool.query<EventRow>(sql, params);
      return rows.map(toStoredEvent);
    } catch (error) {
      throw mapPgError(error, { stream });
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreUnavailableError('the event store was closed');
  }
}
