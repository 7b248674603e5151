import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';
import type { TokenRole } from '@app/application';
import type { ReplyAdapters } from './grpc-reply';

export const GRPC_SERVICE_METADATA = 'runtime:grpc-service';
export const GRPC_METHODS_METADATA = 'runtime:grpc-methods';

export interface GrpcServiceOptions {
  /** Fully qualified service name, e.g. `agent_runtime.v1.AgentRuntime`. */
  service: string;
  /** File under libs/contracts/proto (or an absolute path). */
  proto: string;
  /** Where a reply message's shape differs from the HTTP body (see replyMapperFor). Shared by the service's providers. */
  replyAdapters?: ReplyAdapters;
}

export interface GrpcMethodOptions {
  /** No token needed. */
  public?: boolean;
  /** Only a `*` token. */
  adminOnly?: boolean;
  /** Request field holding the agent id the caller must have access to; default `agent_id`, null for none. */
  agentIdField?: string | null;
  /** The roles the RPC accepts (admin always passes); absent: every role. Every agent RPC declares them. */
  roles?: readonly TokenRole[];
}

export interface GrpcMethodBinding extends GrpcMethodOptions {
  /** RPC name as in the .proto (`CreateAgent`). */
  method: string;
  /** `unary` (@GrpcUnary) or `server_stream` (@GrpcServerStream); absent: unary. */
  kind?: 'unary' | 'server_stream';
  /** Name of the class method that handles it. */
  handler: string | symbol;
}

/**
 * Marks a provider as implementing RPCs of one gRPC service (one feature's slice: several
 * providers may share a service). The GrpcServerHost discovers them and merges their handlers.
 */
export function GrpcService(options: GrpcServiceOptions): ClassDecorator {
  return applyDecorators(Injectable(), SetMetadata(GRPC_SERVICE_METADATA, options));
}

/** Binds a method to a unary RPC: `(request, context: GrpcCallContext) => reply | Promise<reply>`. */
export function GrpcUnary(method: string, options: GrpcMethodOptions = {}): MethodDecorator {
  return bindMethod(method, options, 'unary');
}

/**
 * Binds a method to a server-streaming RPC: `(request, context: GrpcStreamContext) =>
 * AsyncIterable<reply> | Promise<AsyncIterable<reply>>`. What the method throws before it
 * returns the iterable refuses the call (the same envelope as a unary refusal); the host then
 * sends the response headers and writes each item as it comes, until the iterable ends, the
 * client cancels or the server stops (see createServerStreamHandler).
 */
export function GrpcServerStream(method: string, options: GrpcMethodOptions = {}): MethodDecorator {
  return bindMethod(method, options, 'server_stream');
}

function bindMethod(method: string, options: GrpcMethodOptions, kind: GrpcMethodBinding['kind']): MethodDecorator {
  return (target, propertyKey) => {
    const owner = target.constructor;
    const existing = (Reflect.getMetadata(GRPC_METHODS_METADATA, owner) as GrpcMethodBinding[] | undefined) ?? [];
    const binding: GrpcMethodBinding = { ...options, method, handler: propertyKey };
    if (kind === 'server_stream') binding.kind = kind;
    Reflect.defineMetadata(GRPC_METHODS_METADATA, [...existing, binding], owner);
  };
}

export function grpcServiceOf(type: unknown): GrpcServiceOptions | undefined {
  return typeof type === 'function'
    ? (Reflect.getMetadata(GRPC_SERVICE_METADATA, type) as GrpcServiceOptions | undefined)
    : undefined;
}

export function grpcMethodsOf(type: unknown): GrpcMethodBinding[] {
  return typeof type === 'function'
    ? ((Reflect.getMetadata(GRPC_METHODS_METADATA, type) as GrpcMethodBinding[] | undefined) ?? [])
    : [];
}
