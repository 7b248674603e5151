/**
 * One operation of the runtime, described once for both transports: the HTTP route and the
 * gRPC call. The client builds it; a transport sends it.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpCall {
  method: HttpMethod;
  /** The path with its ids already encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body, or the text of a `text/markdown` body when `text` is set. */
  body?: unknown;
  text?: boolean;
  /** The reply is text (the plan body), not JSON. */
  replyText?: boolean;
}

export interface GrpcCall {
  /** The RPC of `agent_runtime.v1.AgentRuntime`. */
  rpc: string;
  request: Record<string, unknown>;
  /** Turns the RPC's reply into the HTTP reply's shape, where they differ beyond nulls. */
  reply?: (reply: Record<string, unknown>) => unknown;
}

export interface Operation {
  /** The client method, for messages. */
  name: string;
  kind: 'command' | 'read';
  /** The agent it touches: a command remembers its reply's position under it; a read asks for that position. */
  agentId?: string;
  /** The public callback route: no bearer token. */
  public?: boolean;
  /**
   * A long poll: the server may hold the call this many milliseconds before it answers, so an
   * attempt's timeout (the gRPC deadline) is the request timeout on top of it.
   */
  longPollMs?: number;
  http: HttpCall;
  /** The gRPC form, or why there is none (yet). */
  grpc: GrpcCall | { unsupported: string };
}

/** What one attempt carries besides the operation. */
export interface CallContext {
  /** Commands: the Idempotency-Key (gRPC `command_id`), the same on every attempt. */
  idempotencyKey?: string;
  /** Commands: X-Correlation-Id (gRPC `correlation_id`). */
  correlationId?: string;
  /** Reads: answer once the read models include this store position. */
  minPosition?: string;
  signal?: AbortSignal;
}

/** A way to reach the runtime. */
export interface Transport {
  send(operation: Operation, context: CallContext): Promise<unknown>;
  close(): void;
}

/** A path from its segments, each id percent-encoded: `route('agents', id, 'work-items')` is `/v1/agents/<id>/work-items`. */
export function route(...segments: string[]): string {
  return `/v1/${segments.map((segment) => encodeURIComponent(segment)).join('/')}`;
}
