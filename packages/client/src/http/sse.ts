import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ERROR_STATUS, RuntimeApiError, RuntimeNetworkError, isRuntimeErrorCode } from '../errors';
import { backoffDelay, isRetryable, sleep, type RetryPolicy } from '../retry';
import { describe, refusalOf } from './http-transport';

/** One server-sent event: `id` (what a reconnect sends back as Last-Event-ID), `event` (the type) and its JSON data. */
export interface StreamFrame<T = unknown> {
  id: string;
  event: string;
  data: T;
}

export interface StreamOptions {
  /** Start after this id (an agent revision, or a global position for the changes feed). */
  after?: string;
  /** Ends the stream: the iteration finishes (no error) and the connection closes. */
  signal?: AbortSignal;
  /** The wait before reconnecting after the server ended a stream (default: the server's `retry:`, else the policy's base delay). */
  reconnectDelayMs?: number;
}

export interface SseSource {
  url: URL;
  headers: Record<string, string>;
  fetch: typeof fetch;
  retry: RetryPolicy;
}

/**
 * A server-sent-event route as an async iterable that survives drops: after the connection
 * ends or fails it reconnects with `Last-Event-ID` set to the last frame's id, so the server
 * resumes right after it (no gap), and a frame at or before that id is skipped (no duplicate).
 * Consecutive failed connections are bounded by the retry policy; a refusal that is not
 * retryable (401, 403, 404...) ends the iteration with its RuntimeApiError. `return()` (a
 * `break` out of `for await`) or the signal closes the connection.
 */
export async function* sseStream<T>(source: SseSource, options: StreamOptions = {}): AsyncGenerator<StreamFrame<T>> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (options.signal?.aborted) return;
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let lastId = options.after;
  let serverRetryMs: number | undefined;
  let failures = 0;
  let firstFailureAt = 0;
  try {
    while (!controller.signal.aborted) {
      let error: unknown = null;
      let framed = false;
      try {
        const headers: Record<string, string> = { ...source.headers, accept: 'text/event-stream' };
        if (lastId !== undefined) headers['last-event-id'] = lastId;
        const response = await source.fetch(source.url, { headers, signal: controller.signal });
        if (!response.ok) throw refusalOf(response, await response.text());
        if (!response.body) throw new RuntimeNetworkError('the stream has no body');
        const pending: EventSourceMessage[] = [];
        const parser = createParser({
          onEvent: (message) => pending.push(message),
          onRetry: (ms) => (serverRetryMs = ms),
        });
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
          for (let message = pending.shift(); message; message = pending.shift()) {
            if (controller.signal.aborted) return;
            if (message.event === 'error') throw streamError(message.data);
            if (message.id !== undefined && lastId !== undefined && !isAfter(message.id, lastId)) continue;
            if (message.id !== undefined) lastId = message.id;
            framed = true;
            failures = 0;
            yield { id: message.id ?? '', event: message.event ?? 'message', data: parseData(message.data) as T };
          }
        }
      } catch (caught) {
        if (controller.signal.aborted) return;
        error =
          caught instanceof RuntimeApiError ? caught : new RuntimeNetworkError(describe(caught), { cause: caught });
        if (!isRetryable(error)) throw error;
      }
      // The stream ended (the server closed it) or failed: reconnect after the last frame.
      let delayMs: number;
      if (error === null || framed) {
        delayMs = options.reconnectDelayMs ?? serverRetryMs ?? source.retry.baseDelayMs;
      } else {
        failures += 1;
        if (failures === 1) firstFailureAt = Date.now();
        const retryAfter = error instanceof RuntimeApiError ? error.retryAfterMs : undefined;
        delayMs = backoffDelay(failures, source.retry, retryAfter);
        if (failures >= source.retry.maxAttempts || Date.now() - firstFailureAt + delayMs > source.retry.maxElapsedMs)
          throw error;
        source.retry.onRetry?.({ attempt: failures, error: error as RuntimeApiError, delayMs });
      }
      await sleep(delayMs, controller.signal).catch(() => undefined);
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/** Whether frame id `id` comes after `last` (numeric ids compare as numbers; others only differ). */
function isAfter(id: string, last: string): boolean {
  if (/^\d+$/.test(id) && /^\d+$/.test(last)) return BigInt(id) > BigInt(last);
  return id !== last;
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** The server's `event: error` frame (`{error: {code, message}}`) before it ends a stream. */
function streamError(data: string): RuntimeApiError {
  const parsed = parseData(data) as { error?: { code?: unknown; message?: unknown } } | string;
  const body = typeof parsed === 'object' && parsed !== null ? parsed.error : undefined;
  const code = isRuntimeErrorCode(body?.code) ? body.code : 'internal';
  return new RuntimeApiError({
    code,
    wireCode: typeof body?.code === 'string' ? body.code : code,
    status: ERROR_STATUS[code],
    message: typeof body?.message === 'string' ? body.message : 'the stream failed',
  });
}
