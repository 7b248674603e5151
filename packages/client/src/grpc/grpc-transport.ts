import {
  credentials,
  loadPackageDefinition,
  Metadata,
  status as GrpcStatus,
  type Client,
  type ClientReadableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import {
  ERROR_STATUS,
  isRuntimeErrorCode,
  parseRetryAfter,
  RuntimeApiError,
  RuntimeNetworkError,
  UnsupportedOperationError,
  type RuntimeErrorCode,
} from '../errors';
import type { CallContext, Operation, Transport } from '../operation';
import { httpShape } from './messages';
import { PROTO_FILE, PROTO_LOADER_OPTIONS, SERVICE_NAME } from './proto';

export interface GrpcTransportOptions {
  /** `host:port`, `grpc://host:port` (plaintext) or `grpcs://host:port` (TLS). */
  url: string;
  token?: string;
  /** Per attempt (the call's deadline); a deadline is a network error (retried). */
  requestTimeoutMs: number;
}

type UnaryCallback = (error: ServiceError | null, reply: Record<string, unknown>) => void;
type UnaryRpc = (
  request: object,
  metadata: Metadata,
  options: { deadline: Date },
  callback: UnaryCallback,
) => { cancel(): void };

/** The gRPC face, `agent_runtime.v1.AgentRuntime`, over @grpc/grpc-js with the package's .proto. */
export class GrpcTransport implements Transport {
  private readonly client: Client & Record<string, UnaryRpc>;

  constructor(private readonly options: GrpcTransportOptions) {
    const { address, tls } = parseGrpcUrl(options.url);
    const definition = loadPackageDefinition(loadSync(PROTO_FILE, PROTO_LOADER_OPTIONS));
    const Service = SERVICE_NAME.split('.').reduce<any>((scope, name) => scope?.[name], definition);
    if (typeof Service !== 'function') throw new Error(`${SERVICE_NAME} is not in ${PROTO_FILE}`);
    this.client = new Service(address, tls ? credentials.createSsl() : credentials.createInsecure());
  }

  send(operation: Operation, context: CallContext): Promise<unknown> {
    const { grpc } = operation;
    if ('unsupported' in grpc) return Promise.reject(new UnsupportedOperationError(grpc.unsupported));
    const rpc = this.client[grpc.rpc];
    if (typeof rpc !== 'function') {
      return Promise.reject(new UnsupportedOperationError(`${operation.name}: the server's .proto has no ${grpc.rpc}`));
    }
    const request: Record<string, unknown> = { ...grpc.request };
    // HTTP takes a JSON number or a decimal string; the proto field is a string.
    if (typeof request.expected_revision === 'number') request.expected_revision = String(request.expected_revision);
    if (context.idempotencyKey !== undefined) request.command_id = context.idempotencyKey;
    if (context.correlationId !== undefined) request.correlation_id = context.correlationId;
    if (context.minPosition !== undefined) request.min_position = context.minPosition;
    const metadata = new Metadata();
    if (this.options.token && !operation.public) metadata.set('authorization', `Bearer ${this.options.token}`);
    const signal = context.signal;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => call.cancel();
      const deadline = new Date(Date.now() + this.options.requestTimeoutMs + (operation.longPollMs ?? 0));
      const call = rpc.call(this.client, request, metadata, { deadline }, (error, reply) => {
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) return reject(signal.reason);
        if (error) return reject(refusalOf(error, `${grpc.rpc}`));
        const shaped = httpShape(reply) as Record<string, unknown>;
        resolve(grpc.reply ? grpc.reply(shaped) : shaped);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Opens the server-streaming RPC `rpc` with the bearer token and no deadline (a stream lives
   * until it is cancelled); its failure is the stream's `error` (see refusalOf).
   */
  openStream(rpc: string, request: object): ClientReadableStream<Record<string, unknown>> {
    const method = this.client[rpc] as unknown as
      ((request: object, metadata: Metadata) => ClientReadableStream<Record<string, unknown>>) | undefined;
    if (typeof method !== 'function') throw new UnsupportedOperationError(`the server's .proto has no ${rpc}`);
    const metadata = new Metadata();
    if (this.options.token) metadata.set('authorization', `Bearer ${this.options.token}`);
    return method.call(this.client, request, metadata);
  }

  close(): void {
    this.client.close();
  }
}

export function parseGrpcUrl(url: string): { address: string; tls: boolean } {
  const match = /^(grpcs?):\/\/(.+?)\/?$/.exec(url);
  if (!match) return { address: url, tls: false };
  return { address: match[2], tls: match[1] === 'grpcs' };
}

/** The codes a status stands for when the server sent no `error-code` trailer. */
const CODE_BY_GRPC_STATUS: Partial<Record<number, RuntimeErrorCode>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 'validation_failed',
  [GrpcStatus.UNAUTHENTICATED]: 'unauthorized',
  [GrpcStatus.PERMISSION_DENIED]: 'forbidden',
  [GrpcStatus.NOT_FOUND]: 'not_found',
  [GrpcStatus.ALREADY_EXISTS]: 'conflict',
  [GrpcStatus.ABORTED]: 'conflict',
  [GrpcStatus.FAILED_PRECONDITION]: 'invariant_violated',
  [GrpcStatus.RESOURCE_EXHAUSTED]: 'rate_limited',
  [GrpcStatus.UNIMPLEMENTED]: 'not_found',
};

/**
 * A failed call as the error envelope: the `error-code` and `error-details` trailers (and
 * `retry-after`) of the server's refusals; a call that never reached an answer (unavailable
 * without a code, a deadline) is a network error.
 */
export function refusalOf(error: ServiceError, what: string): RuntimeApiError | RuntimeNetworkError {
  const trailer = (key: string) => {
    const value = error.metadata?.get(key)[0];
    return typeof value === 'string' ? value : undefined;
  };
  const wireCode = trailer('error-code');
  if (
    wireCode === undefined &&
    (error.code === GrpcStatus.UNAVAILABLE || error.code === GrpcStatus.DEADLINE_EXCEEDED)
  ) {
    return new RuntimeNetworkError(`${what}: ${error.details || error.message}`, { cause: error });
  }
  const code: RuntimeErrorCode = isRuntimeErrorCode(wireCode)
    ? wireCode
    : (CODE_BY_GRPC_STATUS[error.code] ?? 'internal');
  let details: Record<string, unknown> = {};
  try {
    const raw = trailer('error-details');
    if (raw) details = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    details = {};
  }
  return new RuntimeApiError({
    code,
    wireCode: wireCode ?? code,
    status: ERROR_STATUS[code],
    message: error.details || error.message,
    details,
    retryAfterMs: parseRetryAfter(trailer('retry-after')),
    grpcStatus: error.code,
  });
}
