import { BACKWARDS, END, EventStoreDBClient, FORWARDS, START, type ReadRevision } from '@eventstore/db-client';
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
import {
  fromEsdbPosition,
  fromRecordedEvent,
  isStreamNotFound,
  isSystemEvent,
  mapEsdbError,
  toEsdbEvent,
  toEsdbExpectedRevision,
  toEsdbPosition,
} from './eventstoredb-mapping';
import { EventStoreDbSubscription } from './eventstoredb-subscription';

const TAIL_SCAN = 4096;

export interface EventStoreDbEventStoreOptions {
  /** Upper bound of one call (append, one read) before StoreUnavailableError. */
  timeoutMs?: number;
}

/** The production store: EventStoreDB / KurrentDB through @eventstore/db-client. */
export class EventStoreDbEventStore implements EventStore {
  private readonly timeoutMs: number;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();

  constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  static fromConnectionString(
    connectionString: string,
    options?: EventStoreDbEventStoreOptions,
  ): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString), options);
  }

  async appendToStream(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    assertExpectedRevision(expected);
    if (events.length === 0) throw new RangeError('appendToStream needs at least one event');
    try {
      const result = await withTimeout(
        this.client.appendToStream(stream, events.map(toEsdbEvent), {
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

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    if (options.max_count === 0) return [];
    const backwards = options.direction === 'backwards';
    const fromRevision: ReadRevision = options.from_revision ?? (backwards ? END : START);
    try {
      const read = this.client.readStream(stream, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision,
        ...(options.max_count === undefined ? {} : { maxCount: options.max_count }),
      });
      const events: StoredEvent[] = [];
      const collect = async (): Promise<void> => {
        for await (const resolved of read) if (resolved.event) events.push(fromRecordedEvent(resolved.event));
      };
      await withTimeout(collect(), this.timeoutMs, 'EventStoreDB readStream', () => void read.cancel());
      return events;
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw mapEsdbError(error, { stream });
    }
  }

  /** $all without system events; `after_position` is exclusive, ESDB's fromPosition inclusive. */
  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    const wanted = options.max_count ?? Number.MAX_SAFE_INTEGER;
    if (wanted <= 0) return [];
    const after = options.after_position;
    const read = this.client.readAll({
      direction: FORWARDS,
      fromPosition: after === undefined ? START : toEsdbPosition(after),
    });
    const events: StoredEvent[] = [];
    const collect = async (): Promise<void> => {
      for await (const resolved of read) {
        const event = resolved.event;
        if (!event || isSystemEvent(event)) continue;
        const stored = fromRecordedEvent(event);
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
    const [last] = await this.readStream(stream, { direction: 'backwards', max_count: 1 });
    return last ? last.revision : null;
  }

  /** The newest non-system event's commit position (what a subscriber can reach). */
  async headPosition(): Promise<bigint | null> {
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 4096 });
    const find = async (): Promise<bigint | null> => {
      for await (const resolved of read) {
        const event = resolved.event;
        if (event && !isSystemEvent(event)) return fromRecordedEvent(event).position;
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
    const subscription = new EventStoreDbSubscription(this.client, options, (s) => this.subscriptions.delete(s));
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

  /**
   * Position of the event at `revision`. Servers that do not carry positions in stream
   * reads are answered from the tail of $all (an idempotent retry concerns a recent write).
   */
  private async positionOfRevision(stream: string, revision: bigint): Promise<bigint> {
    const [event] = await this.readStream(stream, { from_revision: revision, max_count: 1 });
    if (!event || event.position >= 0n) return event ? event.position : -1n;
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: TAIL_SCAN });
    const scan = async (): Promise<bigint> => {
      for await (const resolved of read) {
        if (resolved.event?.id === event.id) return fromEsdbPosition(resolved.event.position) ?? -1n;
      }
      return -1n;
    };
    return withTimeout(scan(), this.timeoutMs, 'EventStoreDB position lookup', () => void read.cancel());
  }
}
