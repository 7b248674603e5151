/**
 * The wire error codes (docs/api.md, "Errors") and their HTTP statuses. `read_model_lagging`
 * (503) is the refusal of a read whose `min_position` the read models have not reached yet.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  agent_stopped: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  wake_mismatch: 422,
  invariant_violated: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
  contention: 503,
  read_model_lagging: 503,
  plan_missing: 409,
} as const;

/** A documented error code. */
export type RuntimeErrorCode = keyof typeof ERROR_STATUS;

export function isRuntimeErrorCode(value: unknown): value is RuntimeErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

/** The code a status stands for when a reply carries no envelope (a proxy's page, a gateway). */
export function codeOfStatus(status: number): RuntimeErrorCode {
  const byStatus: Record<number, RuntimeErrorCode> = {
    400: 'validation_failed',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    408: 'request_timeout',
    409: 'conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'invariant_violated',
    429: 'rate_limited',
    431: 'headers_too_large',
  };
  return byStatus[status] ?? (status === 502 || status === 503 || status === 504 ? 'unavailable' : 'internal');
}

export interface RuntimeApiErrorInit {
  code: RuntimeErrorCode;
  status: number;
  message: string;
  details?: Record<string, unknown>;
  /** How long the server asked the caller to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** The code exactly as the server sent it (differs from `code` only for a code this client does not know). */
  wireCode?: string;
  /** The gRPC status code, for a refusal over gRPC. */
  grpcStatus?: number;
}

/** A refusal of the runtime: the error envelope `{error: {code, message, details}}`, over HTTP or gRPC. */
export class RuntimeApiError extends Error {
  readonly code: RuntimeErrorCode;
  /** The HTTP status of the code (over gRPC: the status HTTP would have answered). */
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly retryAfterMs: number | undefined;
  readonly wireCode: string;
  readonly grpcStatus: number | undefined;

  constructor(init: RuntimeApiErrorInit) {
    super(init.message);
    this.name = 'RuntimeApiError';
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
    this.retryAfterMs = init.retryAfterMs;
    this.wireCode = init.wireCode ?? init.code;
    this.grpcStatus = init.grpcStatus;
  }
}

/** The request never got an answer: connection refused or reset, a timeout, a cut stream. */
export class RuntimeNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RuntimeNetworkError';
  }
}

/** The operation exists on the other transport only (e.g. the event streams over gRPC, for now). */
export class UnsupportedOperationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedOperationError';
  }
}

/** The envelope of a reply body, or null when the body is not one. */
export function errorFromEnvelope(
  body: unknown,
  status: number,
  retryAfterMs: number | undefined,
): RuntimeApiError | null {
  const error = (body as { error?: unknown } | null)?.error as
    { code?: unknown; message?: unknown; details?: unknown } | undefined;
  if (!error || typeof error !== 'object' || typeof error.code !== 'string') return null;
  const details = error.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
  return new RuntimeApiError({
    code: isRuntimeErrorCode(error.code) ? error.code : codeOfStatus(status),
    wireCode: error.code,
    status,
    message: typeof error.message === 'string' ? error.message : error.code,
    details,
    retryAfterMs: retryAfterMs ?? retryAfterOfDetails(details),
  });
}

function retryAfterOfDetails(details: Record<string, unknown>): number | undefined {
  const seconds = details.retry_after_seconds;
  return typeof seconds === 'number' && seconds >= 0 ? seconds * 1000 : undefined;
}

/** A Retry-After value (delay seconds or an HTTP date) in milliseconds from `now`. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
