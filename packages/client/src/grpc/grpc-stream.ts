import type { ClientReadableStream, ServiceError } from '@grpc/grpc-js';
import { RuntimeApiError, RuntimeNetworkError } from '../errors';
import type { StreamFrame, StreamOptions } from '../http/sse';
import { backoffDelay, isRetryable, sleep, type RetryPolicy } from '../retry';
import { refusalOf } from './grpc-transport';

export interface GrpcStreamSource<T> {
  /** The RPC, for messages. */
  rpc: string;
  /** Opens the call resuming after `after` (exclusive; undefined: the RPC's own start). */
  open(after: string | undefined): ClientReadableStream<Record<string, unknown>>;
  /** A message as the frame the HTTP stream would carry for it (its id is the cursor). */
  frame(message: Record<string, unknown>): StreamFrame<T>;
  retry: RetryPolicy;
}

const ignore = () => undefined;

/**
 * A server-streaming RPC (WatchEvents, WatchChanges) as the same async iterable as the SSE
 * routes: after the call ends or fails (UNAVAILABLE, a broken connection) it is called again
 * with `after` set to the last frame's cursor, so the server resumes right after it (no gap),
 * and a frame at or before that cursor is skipped (no duplicate). Consecutive failed calls are
 * bounded by the retry policy; a refusal that is not retryable (PERMISSION_DENIED, NOT_FOUND,
 * INVALID_ARGUMENT...) ends the iteration with its RuntimeApiError. `return()` (a `break` out
 * of `for await`) or the signal cancels the call and ends the iteration without an error.
 */
export async function* grpcStream<T>(
  source: GrpcStreamSource<T>,
  options: StreamOptions = {},
): AsyncGenerator<StreamFrame<T>> {
  if (options.signal?.aborted) return;
  let call: ClientReadableStream<Record<string, unknown>> | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    call?.cancel();
  };
  options.signal?.addEventListener('abort', stop, { once: true });
  let lastId = options.after;
  let failures = 0;
  let firstFailureAt = 0;
  try {
    while (!stopped) {
      let error: RuntimeApiError | RuntimeNetworkError | null = null;
      let framed = false;
      try {
        call = source.open(lastId);
        // A cancelled call still reports its status after the iteration let go of it.
        call.on('error', ignore);
        for await (const message of call as AsyncIterable<Record<string, unknown>>) {
          if (stopped) return;
          const frame = source.frame(message);
          if (lastId !== undefined && !isAfter(frame.id, lastId)) continue;
          lastId = frame.id;
          framed = true;
          failures = 0;
          yield frame;
        }
      } catch (caught) {
        if (stopped) return;
        error = isServiceError(caught)
          ? refusalOf(caught, source.rpc)
          : caught instanceof RuntimeApiError || caught instanceof RuntimeNetworkError
            ? caught
            : new RuntimeNetworkError(`${source.rpc}: ${String(caught)}`, { cause: caught });
        if (!isRetryable(error)) throw error;
      } finally {
        call?.cancel();
      }
      // The call ended (the server closed it) or failed: call again after the last frame.
      let delayMs: number;
      if (error === null || framed) {
        delayMs = options.reconnectDelayMs ?? source.retry.baseDelayMs;
      } else {
        failures += 1;
        if (failures === 1) firstFailureAt = Date.now();
        const retryAfter = error instanceof RuntimeApiError ? error.retryAfterMs : undefined;
        delayMs = backoffDelay(failures, source.retry, retryAfter);
        if (failures >= source.retry.maxAttempts || Date.now() - firstFailureAt + delayMs > source.retry.maxElapsedMs)
          throw error;
        source.retry.onRetry?.({ attempt: failures, error, delayMs });
      }
      await sleep(delayMs, options.signal).catch(ignore);
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    call?.cancel();
  }
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'metadata' in error;
}

/** Whether cursor `id` comes after `last` (decimal cursors compare as numbers; others only differ). */
function isAfter(id: string, last: string): boolean {
  if (/^\d+$/.test(id) && /^\d+$/.test(last)) return BigInt(id) > BigInt(last);
  return id !== last;
}
