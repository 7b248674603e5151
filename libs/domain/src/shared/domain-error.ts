/**
 * Every refusal code the domain can raise. The app maps each to one HTTP status.
 * `agent_stopped`: what a stopped agent's running turn may no longer do (record rounds, take interjections).
 * `wake_mismatch`: a trigger from outside on a wait that only its own source ends (not an `external` wait).
 * `work_item_required`: SpawnAgent without `work_item_id` from a parent that has no focus.
 */
export type DomainErrorCode =
  | 'validation_failed'
  | 'not_found'
  | 'invariant_violated'
  | 'conflict'
  | 'already_exists'
  | 'agent_stopped'
  | 'wake_mismatch'
  | 'work_item_required';

export type DomainErrorDetails = Record<string, unknown>;

/** A refused command: `decide` throws it and nothing is appended. */
export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: DomainErrorCode,
    readonly details: DomainErrorDetails = {},
    message?: string,
  ) {
    super(message ?? defaultMessage(code, details));
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

function defaultMessage(code: DomainErrorCode, details: DomainErrorDetails): string {
  const subject = [details.field, details.rule, details.resource].filter((v) => typeof v === 'string');
  return subject.length > 0 ? `${code}: ${subject.join(' ')}` : code;
}

export const validationFailed = (field: string, rule: string, extra: DomainErrorDetails = {}): DomainError =>
  new DomainError('validation_failed', { field, rule, ...extra }, `${field}: ${rule.replace(/_/g, ' ')}`);
