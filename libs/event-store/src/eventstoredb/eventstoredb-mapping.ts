import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  ErrorType,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type Filter,
  type AppendExpectedRevision,
  type EventData,
  type JSONEventType,
  type Position,
  type RecordedEvent,
} from '@eventstore/db-client';
import type { EventMetadata, EventToAppend, ExpectedRevision, StoredEvent } from '../event-store.port';
import { StoreUnavailableError, WrongExpectedRevisionError } from '../errors';
import { MAX_UINT64, toJsonExpectedRevision } from '../revisions';

/** Pure translations between the port and @eventstore/db-client (unit-tested without a server). */

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return expected;
  }
}

export function toEsdbEvent(event: EventToAppend): EventData<JSONEventType> {
  // NOTE: the caller's id is the idempotency key: never let the client generate one.
  return jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata ?? {} });
}

/** An ESDB position as the port's bigint: the commit position, unique per event for gRPC appends. */
export function fromEsdbPosition(position: Position | undefined): bigint | undefined {
  if (!position) return undefined;
  // Stream reads on older servers report "no position" as unsigned max.
  if (position.commit >= 0n && position.commit < MAX_UINT64) return position.commit;
  return undefined;
}

/** Exclusive subscription checkpoint: ESDB starts a subscription *after* the position it is given. */
export function toEsdbPosition(position: bigint): Position {
  return { commit: position, prepare: position };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/**
 * A recorded event as a StoredEvent. `position` is -1n when the server did not report
 * one (stream reads on servers that do not carry positions in the stream index).
 */
export function fromRecordedEvent(event: RecordedEvent): StoredEvent {
  return {
    id: event.id,
    stream: event.streamId,
    type: event.type,
    data: isObject(event.data) ? event.data : { value: event.data },
    metadata: (isObject(event.metadata) ? event.metadata : {}) as EventMetadata,
    revision: event.revision,
    position: fromEsdbPosition(event.position) ?? -1n,
    recorded_at: event.created.toISOString(),
  };
}

/** System streams and system event types (`$...`) are never part of the port's log. */
export function isSystemEvent(event: Pick<RecordedEvent, 'streamId' | 'type'>): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

/**
 * The streams the port's global log is made of: the given prefixes, or every non-system stream;
 * all of them under `namespace` when one is set (several deployments or test runs sharing one
 * server: every stream name is stored with it in front, and read back without it).
 */
export interface LogScope {
  prefixes?: readonly string[];
  namespace?: string;
}

/** The stored prefixes of the log, or undefined for "every non-system stream". */
function storedPrefixes(scope: LogScope): string[] | undefined {
  const namespace = scope.namespace ?? '';
  if (scope.prefixes && scope.prefixes.length > 0) return scope.prefixes.map((p) => namespace + p);
  return namespace ? [namespace] : undefined;
}

/** A port stream name as stored on the server. */
export function storedStream(scope: LogScope, stream: string): string {
  return (scope.namespace ?? '') + stream;
}

/**
 * The server-side filter of the log: the stream-name prefixes when the scope names them (the
 * runtime reads only its agent streams), else every non-system event. `checkpointReached` and
 * `checkpointInterval` are the filtered subscription's checkpoints.
 */
export function logFilter(
  scope: LogScope,
  checkpoints: Pick<Filter, 'checkpointInterval' | 'checkpointReached'> = { checkpointInterval: 1 },
): Filter {
  const prefixes = storedPrefixes(scope);
  return prefixes ? streamNameFilter({ prefixes, ...checkpoints }) : excludeSystemEvents(checkpoints);
}

/** The same test on the client's side (a server is trusted, not relied on, to filter). */
export function isInLog(event: Pick<RecordedEvent, 'streamId' | 'type'>, scope: LogScope): boolean {
  if (isSystemEvent(event)) return false;
  const prefixes = storedPrefixes(scope);
  return !prefixes || prefixes.some((p) => event.streamId.startsWith(p));
}

/** A recorded event as the port's StoredEvent, its stream name without the namespace. */
export function fromLogEvent(event: RecordedEvent, scope: LogScope): StoredEvent {
  const stored = fromRecordedEvent(event);
  const namespace = scope.namespace ?? '';
  return namespace && stored.stream.startsWith(namespace)
    ? { ...stored, stream: stored.stream.slice(namespace.length) }
    : stored;
}

/**
 * `streamNamespace=<ns>` in an EventStoreDB connection string is the adapter's, not the
 * client's: split it off (the client warns about keys it does not know).
 */
export function splitConnectionString(connectionString: string): { client: string; namespace?: string } {
  const [base, query] = connectionString.split('?', 2);
  if (query === undefined) return { client: connectionString };
  let namespace: string | undefined;
  const kept = query.split('&').filter((pair) => {
    const [key, value = ''] = pair.split('=', 2);
    if (key.toLowerCase() !== 'streamnamespace') return true;
    namespace = decodeURIComponent(value);
    return false;
  });
  return { client: kept.length > 0 ? `${base}?${kept.join('&')}` : base, namespace: namespace || undefined };
}

/** A server-side filter matching exactly one stream name. */
export function oneStreamFilter(stream: string): Filter {
  return streamNameFilter({ regex: `^${stream.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` });
}

const UNAVAILABLE_TYPES = new Set<string>([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.TIMEOUT,
  ErrorType.NOT_LEADER,
]);

export function isEsdbUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { type, code, message } = error as { type?: unknown; code?: unknown; message?: unknown };
  if (typeof type === 'string' && UNAVAILABLE_TYPES.has(type)) return true;
  if (code === 14 || code === 4) return true; // gRPC UNAVAILABLE, DEADLINE_EXCEEDED
  return (
    typeof message === 'string' && /failed to discover|connection refused|no connection established/i.test(message)
  );
}

/** Translate client errors into the port's typed errors; others are returned unchanged. */
export function mapEsdbError(error: unknown, context: { stream?: string; expected?: ExpectedRevision } = {}): unknown {
  if (error instanceof WrongExpectedVersionError) {
    const actual = error.actualVersion === NO_STREAM ? null : (error.actualVersion as bigint);
    const expected =
      context.expected === undefined ? String(error.expectedVersion) : toJsonExpectedRevision(context.expected);
    return new WrongExpectedRevisionError(context.stream ?? error.streamName, expected, actual);
  }
  if (isEsdbUnavailable(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return error instanceof StoreUnavailableError
      ? error
      : new StoreUnavailableError(`EventStoreDB unavailable: ${message}`, error);
  }
  return error;
}

export function isStreamNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { type?: unknown }).type === ErrorType.STREAM_NOT_FOUND
  );
}
