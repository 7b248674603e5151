/**
 * What a model adapter throws: every failure is a ModelError with a `kind`, so a host can tell
 * "the turn was cancelled" from "the provider refused the request" from "the answer made no sense".
 */
export type ModelErrorKind = 'config' | 'http' | 'network' | 'timeout' | 'aborted' | 'invalid_response' | 'script';

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The adapter is missing its base URL or model name (options or MODEL_* environment). */
export class ModelConfigError extends ModelError {
  constructor(message: string) {
    super('config', message);
  }
}

/**
 * The provider answered with an error status: a 4xx (never retried), or a 429/5xx still failing
 * after the retries. `providerMessage`, `type` and `code` come from its `{error: {message, type, code}}` body.
 */
export class ModelHttpError extends ModelError {
  readonly status: number;
  readonly providerMessage: string;
  readonly type: string | undefined;
  readonly code: string | undefined;
  /** The delay the provider asked for (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** Attempts made, this one included. */
  readonly attempts: number;

  constructor(init: {
    status: number;
    providerMessage: string;
    type?: string;
    code?: string;
    retryAfterMs?: number;
    attempts: number;
  }) {
    const tag = [init.type, init.code].filter(Boolean).join('/');
    const tries = init.attempts > 1 ? ` after ${init.attempts} attempts` : '';
    super('http', `model provider answered ${init.status}${tag ? ` (${tag})` : ''}${tries}: ${init.providerMessage}`);
    this.status = init.status;
    this.providerMessage = init.providerMessage;
    this.type = init.type;
    this.code = init.code;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
  }
}

/** The provider could not be reached (connection refused or reset, DNS), still after the retries. */
export class ModelNetworkError extends ModelError {
  constructor(message: string, cause: unknown) {
    super('network', message, { cause });
  }
}

/** No answer within the adapter's timeout (per attempt), still after the retries. */
export class ModelTimeoutError extends ModelError {
  constructor(readonly timeoutMs: number) {
    super('timeout', `model provider did not answer within ${timeoutMs} ms`);
  }
}

/** The caller's AbortSignal fired (the host aborts on cancel_requested). */
export class ModelAbortedError extends ModelError {
  constructor(reason?: unknown) {
    super('aborted', `model call aborted${reason instanceof Error ? `: ${reason.message}` : ''}`, { cause: reason });
  }
}

/**
 * The provider answered 2xx with something unusable: not JSON, no choice, or a tool call whose
 * arguments are not a JSON object (`toolCall` names it, `rawArguments` is what was sent).
 */
export class ModelResponseError extends ModelError {
  constructor(
    message: string,
    readonly toolCall?: { id: string; name: string; rawArguments: string },
  ) {
    super('invalid_response', message);
  }
}

/** A ScriptedModel was called in a way its script does not allow (ran out, unexpected tool error, ...). */
export class ScriptedModelError extends ModelError {
  constructor(message: string) {
    super('script', message);
  }
}
