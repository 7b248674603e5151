import { validationFailed } from './domain-error';

/** docs/api.md: ids a caller may supply. Also the only ids that may become file-path segments. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Returns the id unchanged, or throws `validation_failed` naming the field. */
export function assertValidId(value: unknown, field: string): string {
  if (!isValidId(value)) throw validationFailed(field, 'invalid_id', { pattern: ID_PATTERN.source });
  return value;
}
