import { Metadata, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import type { runtimeGrpcClient } from './grpc';

/** A server stream read by a spec: messages in order, the end status, and a cancel. */
export interface GrpcStreamReader<T> {
  /** Resolves once the server has sent its response headers (or the stream ended first). */
  ready: Promise<void>;
  /** The next message; rejects when the stream ends first or after `timeoutMs`. */
  next(timeoutMs?: number): Promise<T>;
  /** Resolves with the status the stream ended with: null for OK, else the error (refusals included). */
  ended: Promise<ServiceError | null>;
  /** Messages received and not yet read by next(). */
  readonly buffered: number;
  cancel(): void;
}

/**
 * Opens the server-streaming RPC `method` of the runtime client with an optional bearer token.
 * Never throws: a refusal shows up in `ended` (and makes next() reject).
 */
export function openGrpcStream<T = any>(
  grpc: ReturnType<typeof runtimeGrpcClient>,
  method: string,
  request: object,
  token?: string,
): GrpcStreamReader<T> {
  const metadata = new Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  const rpc = grpc.client[method] as unknown as (request: object, metadata: Metadata) => ClientReadableStream<T>;
  if (typeof rpc !== 'function') throw new Error(`AgentRuntime has no method ${method}`);
  const call = rpc.call(grpc.client, request, metadata);
  const messages: T[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((resume) => resume());
  let done = false;
  const ended = new Promise<ServiceError | null>((resolve) => {
    call.on('error', (error: ServiceError) => resolve(error));
    call.on('status', (status) => status.code === 0 && resolve(null));
  }).finally(() => {
    done = true;
    wake();
  });
  const ready = Promise.race([new Promise<void>((resolve) => call.once('metadata', () => resolve())), ended]).then(
    () => undefined,
  );
  call.on('data', (message: T) => {
    messages.push(message);
    wake();
  });
  const next = async (timeoutMs = 10_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    while (messages.length === 0) {
      if (done) throw new Error(`${method}: the stream ended (${(await ended)?.message ?? 'OK'})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${method}: no message within ${timeoutMs} ms`);
      await new Promise<void>((resume) => {
        const timer = setTimeout(resume, left);
        waiters.push(() => {
          clearTimeout(timer);
          resume();
        });
      });
    }
    return messages.shift()!;
  };
  return {
    ready,
    next,
    ended,
    get buffered() {
      return messages.length;
    },
    cancel: () => call.cancel(),
  };
}
