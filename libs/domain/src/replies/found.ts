import { DomainError } from '../shared/domain-error';

/** A renderer's record that the decision guarantees; `not_found` if it is missing anyway. */
export function found<T>(value: T | null | undefined, resource: string, id: string): T {
  if (value === null || value === undefined) throw new DomainError('not_found', { resource, [`${resource}_id`]: id });
  return value;
}
