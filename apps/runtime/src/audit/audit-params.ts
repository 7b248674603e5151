import { fromJsonRevision } from '@app/event-store';
import { ApiError } from '@app/core';

/** `after` / `Last-Event-ID`: a stream revision (or, for the changes feed, a global position) as a decimal string; absent: from the start. */
export function parseAfter(value: string | undefined, name = 'after', what = 'a stream revision'): bigint | null {
  if (value === undefined || value === '') return null;
  try {
    return fromJsonRevision(value);
  } catch {
    throw new ApiError('validation_failed', `${name} must be ${what} (a non-negative decimal integer)`, {
      field: name,
    });
  }
}

/** `limit`: an integer; clamped to 1..1000 by the reader. */
export function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d{1,10}$/.test(value))
    throw new ApiError('validation_failed', 'limit must be an integer', { field: 'limit' });
  return Number(value);
}

/** The SSE resume point: `Last-Event-ID` (sent by a reconnecting EventSource) wins over `after`. */
export function resumeAfter(
  lastEventId: string | string[] | undefined,
  after: string | undefined,
  what?: string,
): bigint | null {
  const header = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  return header !== undefined && header !== ''
    ? parseAfter(header, 'Last-Event-ID', what)
    : parseAfter(after, 'after', what);
}
