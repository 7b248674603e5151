import { validationFailed } from './domain-error';

/** Length in Unicode code points: what a person calls "characters" (an emoji counts once). */
export function charLength(value: string): number {
  let n = 0;
  for (const _ of value) n += 1;
  return n;
}

export interface TextLimits {
  min: number;
  max: number;
}

/** Trims and checks the length of a text field; returns the trimmed value or throws `validation_failed`. */
export function requireTrimmedText(value: unknown, field: string, limits: TextLimits): string {
  if (typeof value !== 'string') throw validationFailed(field, 'must_be_string');
  const trimmed = value.trim();
  const length = charLength(trimmed);
  if (length < limits.min) throw validationFailed(field, 'empty', { min_length: limits.min });
  if (length > limits.max) throw validationFailed(field, 'too_long', { max_length: limits.max, length });
  return trimmed;
}
