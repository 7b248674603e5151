/**
 * The one event-store port. Every other part of the system talks to the store through
 * this interface; the Postgres and EventStoreDB adapters implement it and pass the same
 * contract suite (`event-store.contract.ts`).
 *
 * Revisions and positions are bigint in memory and decimal strings on the wire.
 */

/** Metadata added at append time (snake_case: it is a stored format). */
export interface EventMetadata {
  correlation_id?: string;
  causation_id?: string;
  command_id?: string;
  actor?: string;
  schema_version?: number;
  [key: string]: unknown;
}

/** An event to append. `id` is a UUID chosen by the caller: the idempotency key. */
export interface EventToAppend {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

/** An event as stored. */
export interface StoredEvent {
  id: string;
  stream: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  /** 0-based revision of the event inside its stream. */
  revision: bigint;
  /** Global position in the whole store (monotonic, gaps allowed). */
  position: bigint;
  /** RFC 3339 time at which the store recorded the event. */
  recorded_at: string;
}

/**
 * Expected state of the stream for an optimistic append.
 * - `no_stream`: the stream must not exist;
 * - `stream_exists`: the stream must exist (any revision);
 * - `any`: no check;
 * - a bigint: the revision of the stream's last event must equal it.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | bigint;

export interface AppendResult {
  /** Revision of the last event written (the stream's revision after the append). */
  next_revision: bigint;
  /** Global position of the last event written. */
  position: bigint;
}

export type ReadDirection = 'forwards' | 'backwards';

export interface ReadStreamOptions {
  direction?: ReadDirection;
  /** Inclusive start revision; default the start (forwards) or the end (backwards). */
  from_revision?: bigint;
  /** Maximum number of events; default unlimited. */
  max_count?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Default: from the beginning. */
  after_position?: bigint;
  max_count?: number;
}

export interface SubscribeOptions {
  /** Exclusive checkpoint: deliver events strictly after it. Default: from the start. */
  after_position?: bigint;
  /** Page size of catch-up reads. */
  batch_size?: number;
  signal?: AbortSignal;
  /**
   * Told of a resume point that is not an event: the store looked at the log up to `position`,
   * and every event at or before it that this subscription delivers has already been handed
   * out by its iterator, which the consumer has since asked for more. A consumer that has
   * applied every event handed out before the call may resume after `position` and miss
   * nothing; until then it must not. A resume point only: never a claim that an event was applied. EventStoreDB sends the server's
   * filtered-subscription checkpoints (`checkpointReached`, ADR 0043); the Postgres store none.
   */
  on_checkpoint?: (position: bigint) => void;
}

/** A catch-up subscription to all events: an async iterable that can be stopped. */
export interface Subscription extends AsyncIterable<StoredEvent> {
  stop(): Promise<void>;
}

export interface EventStore {
  /** Append events atomically. Throws WrongExpectedRevisionError on mismatch. */
  appendToStream(stream: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Read one stream. An unknown stream yields an empty list. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /**
   * The events of one stream at these revisions, in revision order (a revision the stream does
   * not hold is left out; duplicates are read once): a few records' events without the rest.
   */
  readRevisions(stream: string, revisions: readonly bigint[]): Promise<StoredEvent[]>;
  /** Read all events in global order. */
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;
  /** Revision of the last event of a stream, or null when it does not exist. */
  streamRevision(stream: string): Promise<bigint | null>;
  /**
   * Position of the newest committed event (null for an empty store). Readers may not see it
   * yet (an older transaction may still be open), but they will: it is the target for
   * "caught up" and for projection lag.
   */
  headPosition(): Promise<bigint | null>;
  /** Catch-up subscription to all events from a checkpoint; never skips nor repeats. */
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /** Cheap reachability probe for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
