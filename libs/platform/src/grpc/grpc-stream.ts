import { once } from 'node:events';
import { Metadata, type handleServerStreamingCall, type ServerWritableStream } from '@grpc/grpc-js';
import { ApiError } from '@app/core';
import { classifyError } from '../errors/classify-error';
import { toJsonSafe } from '../errors/json-safe';
import { admitCall, callLog, requestIdOf, type GrpcCallContext, type UnaryHandlerDeps } from './grpc-call';
import type { GrpcMethodOptions } from './grpc.decorators';
import { toServiceError } from './grpc-status';

/** What a server-streaming handler receives next to its request. */
export interface GrpcStreamContext extends GrpcCallContext {
  /**
   * Aborted when the call ends from outside: the client cancels or goes away (keepalive), its
   * deadline passes, or the server shuts down. The handler's iterable must end when it aborts
   * (and release what it holds, e.g. a store subscription).
   */
  signal: AbortSignal;
}

export type GrpcStreamInvoker = (
  request: unknown,
  context: GrpcStreamContext,
) => AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>;

/** The abort reason of a stream ended by the server's shutdown: the client gets UNAVAILABLE and resumes elsewhere. */
export const SERVER_SHUTDOWN = Symbol('server shutdown');

/** The server-streaming calls being served: counted (a spec proves a cancelled call is gone), ended on shutdown. */
export class OpenGrpcStreams {
  private readonly open = new Map<AbortController, Promise<void>>();

  get count(): number {
    return this.open.size;
  }

  track(abort: AbortController, served: Promise<void>): void {
    this.open.set(abort, served);
    void served.finally(() => this.open.delete(abort));
  }

  /** Aborts every stream with SERVER_SHUTDOWN and waits until each has released what it held. */
  async endAll(): Promise<void> {
    for (const abort of this.open.keys()) abort.abort(SERVER_SHUTDOWN);
    await Promise.allSettled([...this.open.values()]);
  }
}

/** The part of a grpc-js server stream the pump writes to. */
export type StreamSink = Pick<ServerWritableStream<unknown, unknown>, 'write'> & NodeJS.EventEmitter;

/**
 * Writes each item of `items` (through `toReply`) until it ends or `signal` aborts, with
 * back-pressure: when the call's buffer is full (`write` answers false: the client reads
 * slower than the stream produces, HTTP/2 flow control holds the rest), the next item is not
 * pulled until the call drains. The iterables pull from the store page by page, so a client
 * that stops reading holds one page and the call's buffer, never a growing queue. The iterator
 * is closed on every way out, which ends its subscription.
 */
export async function pumpStream(
  call: StreamSink,
  items: AsyncIterable<unknown>,
  toReply: (item: unknown) => unknown,
  signal: AbortSignal,
): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  try {
    while (!signal.aborted) {
      const next = await iterator.next();
      if (next.done || signal.aborted) return;
      if (!call.write(toReply(next.value))) await once(call, 'drain', { signal }).catch(() => undefined);
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * A grpc-js server-streaming handler around `invoke`: the same admission as a unary call
 * (request checks, throttle, rate limit, token and roles); a refusal, or what `invoke` throws
 * before it returns its iterable, ends the call with the envelope's status and trailers. Then
 * the response headers are sent (the stream's start point is fixed: whatever is written after
 * they arrive is delivered) and the items are pumped (see pumpStream). An error while
 * streaming ends the call with its envelope; a shutdown with UNAVAILABLE; the end of the
 * items with OK. One log line per call (`cancelled` when the client ended it).
 */
export function createServerStreamHandler(
  deps: UnaryHandlerDeps,
  path: string,
  options: GrpcMethodOptions,
  invoke: GrpcStreamInvoker,
  streams: OpenGrpcStreams,
  toReply: (item: unknown) => unknown = (item) => toJsonSafe(item ?? {}),
): handleServerStreamingCall<unknown, unknown> {
  return (call: ServerWritableStream<unknown, unknown>) => {
    const requestId = requestIdOf(call.metadata);
    const done = callLog(deps, path, requestId);
    const abort = new AbortController();
    // grpc-js emits `cancelled` once the call is over: client cancel, a lost connection, the
    // deadline, a status it sent by itself (and after our own end, when nothing is left to stop).
    call.once('cancelled', () => abort.abort());
    if (call.cancelled) abort.abort();
    const fail = (error: unknown) => {
      const classified = classifyError(error);
      done(classified.code, error);
      call.emit('error', toServiceError(classified));
    };
    const served = (async () => {
      let items: AsyncIterable<unknown>;
      try {
        const caller = await admitCall(deps, options, call);
        items = await invoke(call.request, { caller, metadata: call.metadata, requestId, signal: abort.signal });
      } catch (error) {
        return fail(error);
      }
      try {
        if (!abort.signal.aborted) call.sendMetadata(new Metadata());
        await pumpStream(call, items, toReply, abort.signal);
      } catch (error) {
        if (!abort.signal.aborted) return fail(error);
      }
      if (abort.signal.reason === SERVER_SHUTDOWN) {
        done('server_shutdown');
        const stopping = new ApiError(
          'unavailable',
          'the server is shutting down: resume after the last item received',
        );
        call.emit('error', toServiceError(classifyError(stopping)));
        return;
      }
      if (abort.signal.aborted) return done('cancelled');
      call.end();
      done('ok');
    })();
    streams.track(abort, served);
  };
}
