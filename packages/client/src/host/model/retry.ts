/** Backoff and Retry-After for the model adapters' HTTP calls. */
import { parseRetryAfter } from '../../errors';

/**
 * The delay a response asks for, in milliseconds: `retry-after-ms` (sent by OpenAI), else
 * `Retry-After` read as the runtime client reads it (seconds or an HTTP date). Undefined when
 * absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  return parseRetryAfter(headers.get('retry-after'), now);
}

/** Exponential backoff with jitter: attempt 1 waits about base, attempt 2 about 2*base, ... up to cap. */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The client's abortable wait, shared. */
export { sleep } from '../../retry';
