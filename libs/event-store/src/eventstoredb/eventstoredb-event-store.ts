import { BACKWARDS, END, FORWARDS, START, type ReadRevision } from '@eventstore/db-client';
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
import { assertExpectedRevision } from '../revisions';
import { withTimeout } from '../support/timeout';
import { connectEsdbClient, type EsdbClient } from './eventstoredb-client';
import {
  fromEsdbPosition,
  fromLogEvent,
  isInLog,
  isStreamNotFound,
  logFilter,
  mapEsdbError,
  oneStreamFilter,
  splitConnectionString,
  storedStream,
  toEsdbEvent,
  toEsdbExpectedRevision,
  toEsdbPosition,
  type LogScope,
} from './eventstoredb-mapping';
import { EventStoreDbSubscription } from './eventstoredb-subscription';

export interface EventStoreDbEventStoreOptions {
  /** Upper bound of one call (append, one read) before StoreUnavailableError. */
  timeoutMs?: number;
  /**
   * The streams the global log (readAll, subscribeToAll, headPosition) is made of, filtered by
   * the server: the runtime passes its agent stream prefix. Default: every non-system stream.
   */
  streamPrefixes?: readonly string[];
  /** The filtered subscription's checkpoint interval (multiples of the server's search window). */
  checkpointInterval?: number;
  /**
   * Put in front of every stream name on the server (and taken off on reads), so that several
   * deployments or test runs share one server without seeing each other's streams. A connection
   * string may carry it as `streamNamespace=<ns>`.
   */
  streamNamespace?: string;
}

/** The production store: EventStoreDB / KurrentDB through @eventstore/db-client. */
export class EventStoreDbEventStore implements EventStore {
  private readonly timeoutMs: number;
  private readonly scope: LogScope;
  private readonly checkpointInterval: number;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();

  constructor(
    private readonly client: EsdbClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.scope = { prefixes: options.streamPrefixes, namespace: options.streamNamespace };
    this.checkpointInterval = options.checkpointInterval ?? 1;
  }

  static fromConnectionString(
    connectionString: string,
    options?: EventStoreDbEventStoreOptions,
  ): EventStoreDbEventStore {
    const { client, namespace } = splitConnectionString(connectionString);
    return new EventStoreDbEventStore(connectEsdbClient(client), { streamNamespace: namespace, ...options });
  }

  async appendToStream(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    assertExpectedRevision(expected);
    if (events.length === 0) throw new RangeError('appendToStream needs at least one event');
    try {
      const result = await withTimeout(
        this.client.appendToStream(storedStream(this.scope, stream), events.map(toEsdbEvent), {
          expectedRevision: toEsdbExpectedRevision(expected),
          deadline: this.timeoutMs,
        }),
        this.timeoutMs,
        'EventStoreDB append',
      );
      // An idempotent retry may come back without a position: look up the original one.
      const position =
        fromEsdbPosition(result.position) ?? (await this.positionOfRevision(stream, result.nextExpectedRevision));
      return { next_revision: result.nextExpectedRevision, position };
    } catch (error) {
      throw mapEsdbError(error, { stream, expected });
    }
  }

  /** Events with their real positions: a server that reports none in stream reads is answered through $all. */
  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const events = await this.readStreamAsStored(stream, options);
    return events.some((e) => e.position < 0n) ? this.resolvePositions(stream, events) : events;
  }

  /** One single-event read per revision (a missing one is left out), positions filled in once for all of them. */
  async readRevisions(stream: string, revisions: readonly bigint[]): Promise<StoredEvent[]> {
    const wanted = [...new Set(revisions.filter((r) => r >= 0n))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const reads = await Promise.all(
      wanted.map((revision) => this.readStreamAsStored(stream, { from_revision: revision, max_count: 1 })),
    );
    const events = reads.flatMap((read, i) => read.filter((e) => e.revision === wanted[i]));
    return events.some((e) => e.position < 0n) ? this.resolvePositions(stream, events) : events;
  }

  /** $all through the log's server-side filter; `after_position` is exclusive, ESDB's fromPosition inclusive. */
  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const wanted = options.max_count ?? Number.MAX_SAFE_INTEGER;
    if (wanted <= 0) return [];
    const after = options.after_position;
    const read = this.client.readAll({
      direction: FORWARDS,
      fromPosition: after === undefined ? START : toEsdbPosition(after),
      maxCount: after === undefined || wanted === Number.MAX_SAFE_INTEGER ? wanted : wanted + 1,
      filter: logFilter(this.scope),
    });
    const events: StoredEvent[] = [];
    const collect = async (): Promise<void> => {
      for await (const resolved of read) {
        const event = resolved.event;
        if (!event || !isInLog(event, this.scope)) continue;
        const stored = fromLogEvent(event, this.scope);
        if (after !== undefined && stored.position <= after) continue;
        events.push(stored);
        if (events.length >= wanted) break; // leaving for-await cancels the read
      }
    };
    try {
      await withTimeout(collect(), this.timeoutMs, 'EventStoreDB readAll', () => void read.cancel());
      return events;
    } catch (error) {
      throw mapEsdbError(error);
    }
  }

  async streamRevision(stream: string): Promise<bigint | null> {
    const [last] = await this.readStreamAsStored(stream, { direction: 'backwards', max_count: 1 });
    return last ? last.revision : null;
  }

  /**
   * The newest event of the log (what a subscriber can reach): one backwards read of $all that
   * the server filters, however many system or foreign events lie after it.
   */
  async headPosition(): Promise<bigint | null> {
    const read = this.client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: logFilter(this.scope),
    });
    const find = async (): Promise<bigint | null> => {
      for await (const resolved of read) {
        const event = resolved.event;
        if (event && isInLog(event, this.scope)) return fromLogEvent(event, this.scope).position;
      }
      return null;
    };
    try {
      return await withTimeout(find(), this.timeoutMs, 'EventStoreDB headPosition', () => void read.cancel());
    } catch (error) {
      throw mapEsdbError(error);
    }
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const subscription = new EventStoreDbSubscription(
      this.client,
      { scope: this.scope, checkpointInterval: this.checkpointInterval, ...options },
      (s) => this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ping(): Promise<void> {
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 });
    const probe = async (): Promise<void> => {
      for await (const _ of read) break;
    };
    try {
      await withTimeout(probe(), this.timeoutMs, 'EventStoreDB ping', () => void read.cancel());
    } catch (error) {
      throw mapEsdbError(error);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }

  /** One stream as the server reports it (positions -1 where it reports none). */
  private async readStreamAsStored(stream: string, options: ReadStreamOptions): Promise<StoredEvent[]> {
    if (options.max_count === 0) return [];
    const backwards = options.direction === 'backwards';
    const fromRevision: ReadRevision = options.from_revision ?? (backwards ? END : START);
    try {
      const read = this.client.readStream(storedStream(this.scope, stream), {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision,
        ...(options.max_count === undefined ? {} : { maxCount: options.max_count }),
      });
      const events: StoredEvent[] = [];
      const collect = async (): Promise<void> => {
        for await (const resolved of read) if (resolved.event) events.push(fromLogEvent(resolved.event, this.scope));
      };
      await withTimeout(collect(), this.timeoutMs, 'EventStoreDB readStream', () => void read.cancel());
      return events;
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw mapEsdbError(error, { stream });
    }
  }

  /** Position of the event at `revision` (an idempotent retry's original write). */
  private async positionOfRevision(stream: string, revision: bigint): Promise<bigint> {
    const [event] = await this.readStream(stream, { from_revision: revision, max_count: 1 });
    return event ? event.position : -1n;
  }

  /**
   * Fills in the positions a server left out of a stream read: a backwards read of $all that
   * the server filters down to this one stream, until every missing event is found (the newest
   * first: folds, repeats and the last position read the tail).
   */
  private async resolvePositions(stream: string, events: StoredEvent[]): Promise<StoredEvent[]> {
    const missing = new Set(events.filter((e) => e.position < 0n).map((e) => e.id));
    const found = new Map<string, bigint>();
    const name = storedStream(this.scope, stream);
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, filter: oneStreamFilter(name) });
    const scan = async (): Promise<void> => {
      for await (const resolved of read) {
        const event = resolved.event;
        if (!event || event.streamId !== name || !missing.has(event.id)) continue;
        const position = fromEsdbPosition(event.position);
        if (position !== undefined) found.set(event.id, position);
        if (found.size === missing.size) break;
      }
    };
    try {
      await withTimeout(scan(), this.timeoutMs, 'EventStoreDB position lookup', () => void read.cancel());
    } catch (error) {
      throw mapEsdbError(error, { stream });
    }
    return events.map((e) => (e.position < 0n ? { ...e, position: found.get(e.id) ?? -1n } : e));
  }
}
