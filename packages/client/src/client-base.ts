import { randomUUID } from 'node:crypto';
import { grpcStream } from './grpc/grpc-stream';
import { GrpcTransport } from './grpc/grpc-transport';
import { sseStream, type StreamFrame, type StreamOptions } from './http/sse';
import { HttpTransport } from './http/http-transport';
import type { Operation, Transport } from './operation';
import { WrittenPositions } from './positions';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retry';

export interface RuntimeClientOptions {
  /** HTTP: the base URL (`http://127.0.0.1:3000`). gRPC: `host:port`, `grpc://host:port` or `grpcs://host:port`. */
  url: string;
  /** The bearer token. */
  token?: string;
  /** Default `http`. */
  transport?: 'http' | 'grpc';
  /** The retry policy (fields default to DEFAULT_RETRY_POLICY); `false` sends each request once. */
  retry?: Partial<RetryPolicy> | false;
  /** Per attempt, default 30 s. */
  requestTimeoutMs?: number;
  /** Pass `min_position` on reads of an agent after this client's own commands to it (default true). */
  readYourWrites?: boolean;
  /** HTTP only: the fetch to use (default: the global one) and extra headers. */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

export interface CommandOptions {
  /** The Idempotency-Key (gRPC `command_id`); default: a new UUID, the same on every retry of this call. */
  idempotencyKey?: string;
  /** X-Correlation-Id (gRPC `correlation_id`). */
  correlationId?: string;
  signal?: AbortSignal;
}

export interface ReadOptions {
  /**
   * Answer once the read models include this store position. Default: the highest position
   * this client's commands to the agent got back (none: no `min_position`); `null` sends none.
   */
  minPosition?: string | null;
  signal?: AbortSignal;
}

/** The client's core: transport, retries, idempotency keys and read-your-writes. */
export class RuntimeClientBase {
  protected readonly transport: Transport;
  protected readonly retryPolicy: RetryPolicy;
  /** The store positions this client's commands got back, per agent. */
  readonly positions = new WrittenPositions();

  constructor(
    protected readonly options: RuntimeClientOptions,
    transport?: Transport,
  ) {
    const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.transport =
      transport ??
      (options.transport === 'grpc'
        ? new GrpcTransport({ url: options.url, token: options.token, requestTimeoutMs })
        : new HttpTransport({
            url: options.url,
            token: options.token,
            requestTimeoutMs,
            fetch: options.fetch,
            headers: options.headers,
          }));
    this.retryPolicy =
      options.retry === false
        ? { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 }
        : { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  /** Closes the transport (the gRPC channel). */
  close(): void {
    this.transport.close();
  }

  /** Sends a command with one Idempotency-Key for every attempt, and remembers the position it got back. */
  protected async command<T>(operation: Operation, options: CommandOptions = {}): Promise<T> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const { correlationId, signal } = options;
    const reply = await withRetries(
      () => this.transport.send(operation, { idempotencyKey, correlationId, signal }),
      this.retryPolicy,
      { signal },
    );
    if (operation.agentId !== undefined && reply !== null && typeof reply === 'object') {
      this.positions.observe(operation.agentId, (reply as { position?: unknown }).position);
    }
    return reply as T;
  }

  /** Sends a read, with `min_position` after this client's own writes to the agent. */
  protected read<T>(operation: Operation, options: ReadOptions = {}): Promise<T> {
    const { signal } = options;
    const minPosition =
      options.minPosition === undefined
        ? this.options.readYourWrites !== false && operation.agentId !== undefined
          ? this.positions.minPositionFor(operation.agentId)
          : undefined
        : (options.minPosition ?? undefined);
    return withRetries(() => this.transport.send(operation, { minPosition, signal }), this.retryPolicy, {
      signal,
    }) as Promise<T>;
  }

  /** An SSE route over HTTP, its server-streaming RPC over gRPC: the same frames, the same resume. */
  protected stream<T>(
    path: string,
    options: StreamOptions,
    grpc: {
      rpc: string;
      request: (after: string | undefined) => object;
      frame: (message: Record<string, unknown>) => StreamFrame<T>;
    },
  ): AsyncGenerator<StreamFrame<T>> {
    const transport = this.transport;
    if (transport instanceof GrpcTransport) {
      const open = (after: string | undefined) => transport.openStream(grpc.rpc, grpc.request(after));
      return grpcStream<T>({ rpc: grpc.rpc, open, frame: grpc.frame, retry: this.retryPolicy }, options);
    }
    const url = new URL(this.options.url.replace(/\/+$/, '') + path);
    const headers: Record<string, string> = { ...this.options.headers };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    return sseStream<T>({ url, headers, fetch: this.options.fetch ?? fetch, retry: this.retryPolicy }, options);
  }
}
