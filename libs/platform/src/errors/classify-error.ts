import { ErrorCode, ErrorEnvelope, HTTP_STATUS_BY_CODE, isErrorCode, isHttpMappable } from '@app/core';
import { toJsonSafe } from './json-safe';

export interface ClassifiedError {
  status: number;
  code: ErrorCode;
  message: string;
  details: Record<string, unknown>;
}

type Loose = { [key: string]: unknown };

const PG_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const PG_CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /cannot use a pool after calling end/i,
  /client has encountered a connection error/i,
];

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
};

/**
 * Turn anything thrown into a wire error. Pure. Unknown errors become `internal` with a
 * fixed message: internals (SQL, stacks, file paths) never leave the process.
 */
export function classifyError(error: unknown): ClassifiedError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Loose;
  if (isHttpMappable(error)) {
    return make(error.code, error.message || error.code, error.details ? { ...error.details } : {});
  }
  if (e.code === 'already_exists') {
    // The domain's refusal of a duplicate id: a 409 on the wire (docs/api.md), ALREADY_EXISTS on gRPC.
    const details = typeof e.details === 'object' && e.details !== null ? (e.details as Record<string, unknown>) : {};
    return make('conflict', String(e.message || 'already exists'), { reason: 'already_exists', ...details });
  }
  if (e.code === 'wrong_expected_revision') {
    const actual = e.actual;
    const current = typeof actual === 'bigint' || typeof actual === 'number' ? actual.toString() : null;
    return make('conflict', 'expected_revision does not match the stream', { current_revision: current });
  }
  if (e.code === 'idempotency_conflict') return make('conflict', String(e.message ?? 'idempotency conflict'), {});
  if (e.code === 'store_unavailable' || isPostgresConnectionError(e)) {
    return make('unavailable', 'a backing service is unavailable, retry later', {});
  }
  if (typeof e.getStatus === 'function' && typeof e.getResponse === 'function') return fromHttpException(e);
  if (typeof e.code === 'string' && e.code.startsWith('FST_') && typeof e.statusCode === 'number') {
    const code = FASTIFY_CODES[e.code] ?? codeForStatus(e.statusCode);
    return make(code, code === 'internal' ? 'internal error' : String(e.message), {});
  }
  if (error instanceof SyntaxError && e.statusCode === 400) return make('validation_failed', 'malformed JSON body', {});
  return make('internal', 'internal error', {});
}

export function toEnvelope(classified: ClassifiedError): ErrorEnvelope {
  return { error: { code: classified.code, message: classified.message, details: classified.details } };
}

export function isPostgresConnectionError(e: Loose): boolean {
  if (typeof e.code === 'string' && (PG_CONNECTION_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
  if (
    Array.isArray(e.errors) &&
    e.errors.some((inner) => typeof inner === 'object' && inner !== null && isPostgresConnectionError(inner as Loose))
  ) {
    return true;
  }
  return typeof e.message === 'string' && PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(e.message as string));
}

function fromHttpException(e: Loose): ClassifiedError {
  const status = Number((e.getStatus as () => number)());
  const response = (e.getResponse as () => unknown)();
  const code = codeForStatus(status);
  if (code === 'internal') return make(code, 'internal error', {});
  const body = (typeof response === 'object' && response !== null ? response : {}) as Loose;
  const raw = typeof response === 'string' ? response : body.message;
  if (Array.isArray(raw)) return make(code, raw.map(String).join('; '), { messages: raw.map(String) });
  return make(code, typeof raw === 'string' ? raw : String(e.message ?? code), {});
}

export function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(HTTP_STATUS_BY_CODE) as [ErrorCode, number][]).find(([, value]) => value === status);
  if (match) return match[0];
  if (status === 405) return 'not_found';
  return status >= 400 && status < 500 ? 'validation_failed' : status === 503 ? 'unavailable' : 'internal';
}

function make(code: ErrorCode, message: string, details: Record<string, unknown>): ClassifiedError {
  const safeCode = isErrorCode(code) ? code : 'internal';
  return {
    status: HTTP_STATUS_BY_CODE[safeCode],
    code: safeCode,
    message,
    details: toJsonSafe(details) as Record<string, unknown>,
  };
}
