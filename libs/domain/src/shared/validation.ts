import { validationFailed } from './domain-error';
import { isValidId, ID_PATTERN } from './ids';
import { requireTrimmedText, type TextLimits } from './text';
import { parseRfc3339 } from './time';

// Field checks shared by every slice. Each throws `validation_failed` naming the field.

export function requireOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) throw validationFailed(field, 'invalid_enum', { allowed });
  return value as T;
}

/** Absent (undefined or null) -> `fallback`; otherwise one of `allowed`. */
export function optionalOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], fallback: T): T {
  return value === undefined || value === null ? fallback : requireOneOf(value, field, allowed);
}

/** Absent (undefined or null) -> null; otherwise trimmed text within the limits. */
export function optionalTrimmedText(value: unknown, field: string, limits: TextLimits): string | null {
  return value === undefined || value === null ? null : requireTrimmedText(value, field, limits);
}

/** Absent (undefined or null) -> null; otherwise an id of the docs/api.md pattern. */
export function optionalValidId(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (!isValidId(value)) throw validationFailed(field, 'invalid_id', { pattern: ID_PATTERN.source });
  return value;
}

/** An RFC 3339 date-time on the real calendar (parseRfc3339), returned in its UTC form (`Z`). */
export function requireTimestamp(value: unknown, field: string): string {
  if (value === undefined || value === null) throw validationFailed(field, 'required');
  const instant = parseRfc3339(value);
  if (instant === null) throw validationFailed(field, 'invalid_timestamp');
  return instant;
}

/** An integer in `min..max` (inclusive). */
export function requireIntegerInRange(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw validationFailed(field, 'must_be_integer');
  if (value < min || value > max) throw validationFailed(field, 'out_of_range', { min, max });
  return value;
}

/** A field the rule needs in this case (e.g. `fire_at` for a timer wait). */
export function requirePresent<T>(value: T | null, field: string, rule = 'required'): T {
  if (value === null) throw validationFailed(field, rule);
  return value;
}

/** A required id of the docs/api.md pattern (`required` when absent, `invalid_id` when malformed). */
export function requireValidId(value: unknown, field: string): string {
  return requirePresent(optionalValidId(value, field), field);
}

/** A field this case does not take (e.g. `fire_at` on a non-timer wait). */
export function forbidField(value: unknown, field: string, rule: string): null {
  if (value !== undefined && value !== null) throw validationFailed(field, rule);
  return null;
}
