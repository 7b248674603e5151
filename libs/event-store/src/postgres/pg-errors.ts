import { IdempotencyConflictError, StoreUnavailableError, WrongExpectedRevisionError } from '../errors';
import { SQLSTATE } from './schema';

/** The fields of a node-postgres error this adapter reads (DatabaseError or a socket error). */
interface PgErrorLike {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
  message?: unknown;
}

/** Socket-level failures: the server is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs meaning "not now", not "your request is wrong". */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '58030']);
const UNAVAILABLE_MESSAGES = [
  'connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'client has encountered a connection error',
  'cannot use a pool after calling end',
  'client was closed and is not queryable',
  'the database system is',
];

function fields(error: unknown): PgErrorLike {
  return typeof error === 'object' && error !== null ? (error as PgErrorLike) : {};
}

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  const { code, message } = fields(error);
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')))
    return true;
  const text = typeof message === 'string' ? message.toLowerCase() : '';
  return UNAVAILABLE_MESSAGES.some((fragment) => text.includes(fragment));
}

/** Parse the actual revision that append_events puts into DETAIL. */
export function actualRevisionFromDetail(detail: unknown): bigint | null {
  if (typeof detail !== 'string' || detail === 'no_stream') return null;
  return /^[0-9]+$/.test(detail) ? BigInt(detail) : null;
}

/**
 * Translate a node-postgres error into the port's typed errors; anything else is
 * returned unchanged (a bug or a misuse should keep its original message).
 */
export function mapPgError(error: unknown, context: { stream?: string; expected?: string } = {}): unknown {
  const { code, constraint, detail, message } = fields(error);
  const stream = context.stream ?? '';
  if (code === SQLSTATE.wrongExpectedRevision) {
    return new WrongExpectedRevisionError(stream, context.expected ?? 'unknown', actualRevisionFromDetail(detail));
  }
  if (code === SQLSTATE.idempotencyConflict) {
    return new IdempotencyConflictError(stream, typeof message === 'string' ? message : 'idempotency conflict');
  }
  if (code === '23505' && constraint === 'events_event_id_key') {
    return new IdempotencyConflictError(
      stream,
      `an event id of this batch is already stored at another place (${String(detail ?? '')})`,
    );
  }
  if (isUnavailable(error)) {
    const reason = typeof message === 'string' && message ? message : String(code ?? 'unknown error');
    return new StoreUnavailableError(`postgres event store unavailable: ${reason}`, error);
  }
  return error;
}
