/** Raised when an append's expected revision does not match the stream. */
export class WrongExpectedRevisionError extends Error {
  readonly code = 'wrong_expected_revision' as const;
  constructor(
    readonly stream: string,
    readonly expected: string,
    /** Actual revision of the stream's last event, or null when it does not exist. */
    readonly actual: bigint | null,
  ) {
    super(
      `wrong expected revision on ${stream}: expected ${expected}, actual ${actual === null ? 'no_stream' : actual.toString()}`,
    );
    this.name = 'WrongExpectedRevisionError';
  }
}

/** Raised when an append reuses event ids in a way that is not an exact retry. */
export class IdempotencyConflictError extends Error {
  readonly code = 'idempotency_conflict' as const;
  constructor(
    readonly stream: string,
    message: string,
  ) {
    super(message);
    this.name = 'IdempotencyConflictError';
  }
}

/** Raised when the store cannot be reached (fail fast; callers answer 503). */
export class StoreUnavailableError extends Error {
  readonly code = 'store_unavailable' as const;
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
