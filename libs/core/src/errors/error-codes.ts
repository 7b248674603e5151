/** Wire error codes (docs/api.md, Errors) and their HTTP statuses. */
export const HTTP_STATUS_BY_CODE = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  /** The connection sent no complete request in time (Node's request timeout). */
  request_timeout: 408,
  conflict: 409,
  /** The agent is stopped: its running turn may only heartbeat and post its terminal (no rounds, no interjections). */
  agent_stopped: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invariant_violated: 422,
  /** Too many requests for one token (or one address on the callback route): retry after `Retry-After`. */
  rate_limited: 429,
  /** The request line and headers together are over Node's limit (16 KiB). */
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
  /** An Idempotency-Key already used for a different request (another command or other data): nothing is written. */
  idempotency_key_reused: 422,
  /** A trigger from outside (the trigger route, a callback) on a wait that only its own source ends: only `external` waits. */
  wake_mismatch: 422,
  /** Concurrent writers on one agent outlasted the retries of a command without expected_revision: retry after `Retry-After`. */
  contention: 503,
  /** A read's `min_position` is not in the read models within the bound (they lag, or a poison event parked the agent): retry after `Retry-After`. */
  read_model_lagging: 503,
  /** SpawnAgent without `work_item_id` from a parent that has no focus: name the delegating item. */
  work_item_required: 400,
  /** A plan whose working copy is missing and whose recorded body no store holds: it is never read as empty. */
  plan_missing: 409,
} as const;

export type ErrorCode = keyof typeof HTTP_STATUS_BY_CODE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(HTTP_STATUS_BY_CODE, value);
}

/**
 * Any error the edges know how to render: a string `code` from ErrorCode and optional
 * `details`. The domain's DomainError fits this shape without importing it.
 */
export interface HttpMappable {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export function isHttpMappable(error: unknown): error is HttpMappable {
  return typeof error === 'object' && error !== null && isErrorCode((error as { code?: unknown }).code);
}

/** The platform's own refusal (auth, request guards, validation). */
export class ApiError extends Error implements HttpMappable {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The envelope of every non-2xx reply. */
export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}
