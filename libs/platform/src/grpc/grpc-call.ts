import { randomUUID } from 'node:crypto';
import type { handleUnaryCall, Metadata, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { classifyError } from '../errors/classify-error';
import { ApiError } from '@app/core';
import { assertSafeJsonValue } from '../http/json-guard';
import { toJsonSafe } from '../errors/json-safe';
import {
  authorizeAtEdge,
  type AccessRequirement,
  type Caller,
  type ReadYourWrites,
  type RequestAuthorizer,
} from '@app/application';
import { enforceRateLimit, rateLimitKey, type RateLimiter } from '../security/rate-limiter';
import type { LoginThrottle } from '../security/login-throttle';
import type { GrpcMethodOptions } from './grpc.decorators';
import { toServiceError } from './grpc-status';
import type { OtelTracing } from '../tracing/otel-tracing';
import { startGrpcServerSpan } from '../tracing/grpc-tracing';

/** What a gRPC handler receives next to its request. */
export interface GrpcCallContext {
  /** Null only for a public method called without a token. */
  caller: Caller | null;
  metadata: Metadata;
  requestId: string;
  /** Read-your-writes (the read RPCs wait for their `min_position` through it); absent in a bare host. */
  readYourWrites?: ReadYourWrites;
  /** Aborts when the client cancels the call or goes away (a long poll stops waiting). */
  signal?: AbortSignal;
}

export type GrpcUnaryInvoker = (request: unknown, context: GrpcCallContext) => unknown;

export interface UnaryHandlerDeps {
  authorizer: RequestAuthorizer;
  logger: Logger;
  /** Per-token buckets shared with HTTP (a public RPC without a token: per peer address). */
  limiter?: RateLimiter;
  /** Failed logins per peer address, shared with HTTP: a locked peer gets RESOURCE_EXHAUSTED rate_limited. */
  loginThrottle?: LoginThrottle;
  /** Handed to every call (GrpcCallContext.readYourWrites). */
  readYourWrites?: ReadYourWrites;
  /** Present when tracing is on: each unary call gets a server span (docs/decisions/0033). */
  tracing?: OtelTracing;
}

export function requirementFor(options: GrpcMethodOptions, request: unknown): AccessRequirement {
  if (options.public) return { kind: 'public' };
  if (options.adminOnly) return { kind: 'admin' };
  const roles = options.roles;
  const field = options.agentIdField === undefined ? 'agent_id' : options.agentIdField;
  const value =
    field && typeof request === 'object' && request !== null ? (request as Record<string, unknown>)[field] : undefined;
  return { kind: 'agent', agentId: typeof value === 'string' && value.length > 0 ? value : undefined, roles };
}

/**
 * What a request deserializer returns instead of throwing (see GrpcServerHost): grpc-js
 * answers a throwing deserializer with INTERNAL, but bytes that are not the request message
 * are the caller's mistake, INVALID_ARGUMENT like malformed JSON over HTTP.
 */
export const MALFORMED_REQUEST: object = Object.freeze({ malformed: true });

/** The request rules of the HTTP body parser, before auth as there: a decodable message, storable strings. */
function assertWellFormedRequest(request: unknown): void {
  if (request === MALFORMED_REQUEST) {
    throw new ApiError(
      'validation_failed',
      'malformed request message: not the protobuf encoding of the request type',
      { reason: 'malformed_message' },
    );
  }
  assertSafeJsonValue(request);
}

/** `ipv4:127.0.0.1:5000` / `ipv6:[::1]:5000` -> the address without its port. */
export function peerAddress(peer: string | undefined): string | null {
  if (!peer) return null;
  const bare = peer.replace(/^(?:ipv4|ipv6|unix):/, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(bare);
  if (bracketed) return bracketed[1]!;
  return bare.replace(/:\d+$/, '') || null;
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}

function safePeer(call: Pick<ServerUnaryCall<unknown, unknown>, 'getPeer'>): string | undefined {
  try {
    return typeof call.getPeer === 'function' ? call.getPeer() : undefined;
  } catch {
    return undefined;
  }
}

/** What the host needs of a call (unary or server-streaming) to admit it. */
export type AdmittedCall = Pick<ServerUnaryCall<unknown, unknown>, 'request' | 'metadata' | 'getPeer'>;

/** The request id of a call: its `x-request-id` metadata when well formed, else a new UUID. */
export function requestIdOf(metadata: Metadata): string {
  const headerId = firstString(metadata, 'x-request-id');
  return headerId && /^[A-Za-z0-9._:-]{1,128}$/.test(headerId) ? headerId : randomUUID();
}

/** One log line per call, `code` the wire code (`ok` on success); errors for internal and unavailable. */
export function callLog(deps: Pick<UnaryHandlerDeps, 'logger'>, path: string, requestId: string) {
  const started = process.hrtime.bigint();
  return (code: string, error?: unknown) => {
    const record = {
      component: 'grpc',
      req_id: requestId,
      rpc: path,
      code,
      duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
    };
    if (code === 'internal' || code === 'unavailable') deps.logger.error({ ...record, err: error }, 'rpc failed');
    else deps.logger.info(record, 'rpc');
  };
}

/**
 * The checks every call passes before its handler runs, as over HTTP: a well-formed request,
 * the failed-login throttle, the rate limit (every call of a valid token counts), then the
 * token against the method's requirement. Returns the caller or throws the refusal.
 */
export async function admitCall(
  deps: UnaryHandlerDeps,
  options: GrpcMethodOptions,
  call: AdmittedCall,
): Promise<Caller | null> {
  assertWellFormedRequest(call.request);
  const authorization = firstString(call.metadata, 'authorization');
  const peer = options.public ? null : peerAddress(safePeer(call));
  deps.loginThrottle?.enforce(peer);
  if (deps.limiter) {
    // As on HTTP: every call of a valid token counts (refused ones too), before the route's check.
    const identity = deps.authorizer.authorize(authorization, { kind: 'public' });
    const key = rateLimitKey(identity?.tokenName ?? null, options.public ? peerAddress(safePeer(call)) : null);
    if (key !== null) enforceRateLimit(deps.limiter, key);
  }
  try {
    return await authorizeAtEdge(deps.authorizer, authorization, requirementFor(options, call.request));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'unauthorized') deps.loginThrottle?.recordFailure(peer);
    throw error;
  }
}

/**
 * A grpc-js unary handler around `invoke`: the same auth rules as HTTP (token from
 * `authorization: Bearer ...` metadata), errors mapped to gRPC status codes, the reply
 * through `toReply` (the host's: replyMapperFor the response type; by default bigint as
 * decimal strings), one log line per call.
 */
export function createUnaryHandler(
  deps: UnaryHandlerDeps,
  path: string,
  options: GrpcMethodOptions,
  invoke: GrpcUnaryInvoker,
  toReply: (reply: unknown) => unknown = (reply) => toJsonSafe(reply ?? {}),
): handleUnaryCall<unknown, unknown> {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const requestId = requestIdOf(call.metadata);
    const done = callLog(deps, path, requestId);
    const cancelled = new AbortController();
    const onCancelled = () => cancelled.abort();
    call.once?.('cancelled', onCancelled);
    const span = deps.tracing ? startGrpcServerSpan(deps.tracing, path, call.metadata) : null;
    const run = async () => {
      try {
        const caller = await admitCall(deps, options, call);
        const reply = toReply(
          await invoke(call.request, {
            caller,
            metadata: call.metadata,
            requestId,
            readYourWrites: deps.readYourWrites,
            signal: cancelled.signal,
          }),
        );
        done('ok');
        span?.end('ok');
        callback(null, reply);
      } catch (error) {
        const classified = classifyError(error);
        done(classified.code, error);
        span?.end(classified.code);
        callback(toServiceError(classified));
      } finally {
        call.removeListener?.('cancelled', onCancelled);
      }
    };
    void (span ? span.run(run) : run());
  };
}
