import { randomUUID } from 'node:crypto';
import type { handleUnaryCall, Metadata, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { classifyError } from '../errors/classify-error';
import { toJsonSafe } from '../errors/json-safe';
import type { AccessRequirement, Caller, RequestAuthorizer } from '../security/request-authorizer';
import type { GrpcMethodOptions } from './grpc.decorators';
import { toServiceError } from './grpc-status';

/** What a gRPC handler receives next to its request. */
export interface GrpcCallContext {
  /** Null only for a public method called without a token. */
  caller: Caller | null;
  metadata: Metadata;
  requestId: string;
}

export type GrpcUnaryInvoker = (request: unknown, context: GrpcCallContext) => unknown;

export interface UnaryHandlerDeps {
  authorizer: RequestAuthorizer;
  logger: Logger;
}

export function requirementFor(options: GrpcMethodOptions, request: unknown): AccessRequirement {
  if (options.public) return { kind: 'public' };
  if (options.adminOnly) return { kind: 'admin' };
  const field = options.agentIdField === undefined ? 'agent_id' : options.agentIdField;
  const value = field && typeof request === 'object' && request !== null ? (request as Record<string, unknown>)[field] : undefined;
  return { kind: 'agent', agentId: typeof value === 'string' && value.length > 0 ? value : undefined };
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A grpc-js unary handler around `invoke`: the same auth rules as HTTP (token from
 * `authorization: Bearer ...` metadata), errors mapped to gRPC status codes, bigint
 * replies as decimal strings, one log line per call.
 */
export function createUnaryHandler(deps: UnaryHandlerDeps, path: string, options: GrpcMethodOptions, invoke: GrpcUnaryInvoker): handleUnaryCall<unknown, unknown> {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    const started = process.hrtime.bigint();
    const headerId = firstString(call.metadata, 'x-request-id');
    const requestId = headerId && /^[A-Za-z0-9._:-]{1,128}$/.test(headerId) ? headerId : randomUUID();
    const done = (code: string, error?: unknown) => {
      const record = { component: 'grpc', req_id: requestId, rpc: path, code, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 };
      if (code === 'internal' || code === 'unavailable') deps.logger.error({ ...record, err: error }, 'rpc failed');
      else deps.logger.info(record, 'rpc');
    };
    void (async () => {
      try {
        const caller = deps.authorizer.authorize(firstString(call.metadata, 'authorization'), requirementFor(options, call.request));
        const reply = await invoke(call.request, { caller, metadata: call.metadata, requestId });
        done('ok');
        callback(null, toJsonSafe(reply ?? {}));
      } catch (error) {
        const classified = classifyError(error);
        done(classified.code, error);
        callback(toServiceError(classified));
      }
    })();
  };
}
