import type { ServiceDefinition } from '@grpc/grpc-js';
import type { GrpcUnaryInvoker } from './grpc-call';
import type { ReplyAdapter } from './grpc-reply';
import { grpcMethodsOf, type GrpcMethodBinding, type GrpcServiceOptions } from './grpc.decorators';

/** A provider instance decorated with @GrpcService. */
export interface GrpcProvider {
  options: GrpcServiceOptions;
  type: abstract new (...args: never[]) => unknown;
  instance: object;
}

export interface GrpcHandler {
  binding: GrpcMethodBinding;
  /** `Class.method`, for error messages. */
  owner: string;
  /** Answers a unary handler's reply, or a server-streaming handler's items (see binding.kind). */
  invoke: GrpcUnaryInvoker;
}

/** One gRPC service: the handlers of every provider that declares it, by RPC name. */
export interface MergedGrpcService {
  service: string;
  proto: string;
  replyAdapters: Record<string, ReplyAdapter>;
  handlers: Map<string, GrpcHandler>;
}

/**
 * Merges the providers of each service (one feature's RPCs per provider). Refuses an RPC with
 * two handlers, a service declared with two .proto files, and two different reply adapters
 * for one message type.
 */
export function mergeGrpcProviders(providers: readonly GrpcProvider[]): MergedGrpcService[] {
  const services = new Map<string, MergedGrpcService>();
  for (const { options, type, instance } of providers) {
    const { service, proto } = options;
    let merged = services.get(service);
    if (!merged) {
      merged = { service, proto, replyAdapters: {}, handlers: new Map() };
      services.set(service, merged);
    }
    if (merged.proto !== proto)
      throw new Error(
        `gRPC service ${service} is declared with two .proto files: ${merged.proto} and ${proto} (${type.name})`,
      );
    for (const [message, adapter] of Object.entries(options.replyAdapters ?? {})) {
      const known = merged.replyAdapters[message];
      if (known && known !== adapter)
        throw new Error(`gRPC service ${service} has two reply adapters for ${message} (${type.name})`);
      merged.replyAdapters[message] = adapter;
    }
    for (const binding of grpcMethodsOf(type)) {
      const owner = `${type.name}.${String(binding.handler)}`;
      const other = merged.handlers.get(binding.method);
      if (other) throw new Error(`gRPC ${service}.${binding.method} has two handlers: ${other.owner} and ${owner}`);
      const method = (instance as Record<string | symbol, unknown>)[binding.handler];
      if (typeof method !== 'function') throw new Error(`${owner} is not a method of ${service}'s provider`);
      merged.handlers.set(binding.method, {
        binding,
        owner,
        invoke: (request, context) => (method as GrpcUnaryInvoker).call(instance, request, context),
      });
    }
  }
  return [...services.values()];
}

/**
 * Every RPC of the .proto has exactly one handler, every handler an RPC, and each handler is
 * of its RPC's kind: @GrpcUnary for a unary RPC, @GrpcServerStream for a server-streaming one
 * (client-streaming and bidirectional RPCs are not supported).
 */
export function assertImplements(merged: MergedGrpcService, definition: ServiceDefinition): void {
  const { service, proto } = merged;
  for (const [method, handler] of merged.handlers) {
    if (!definition[method])
      throw new Error(`gRPC service ${service} has no method ${method} (${handler.owner}; see ${proto})`);
  }
  const missing = Object.keys(definition).filter((method) => !merged.handlers.has(method));
  if (missing.length > 0)
    throw new Error(`gRPC service ${service}: no handler for ${missing.join(', ')} (see ${proto})`);
  for (const [method, rpc] of Object.entries(definition)) {
    const streaming = merged.handlers.get(method)!.binding.kind === 'server_stream';
    if (rpc.requestStream) throw new Error(`${service}.${method}: client-streaming RPCs are not supported`);
    if (rpc.responseStream && !streaming)
      throw new Error(`${service}.${method}: only unary RPCs are supported by @GrpcUnary (use @GrpcServerStream)`);
    if (!rpc.responseStream && streaming)
      throw new Error(`${service}.${method}: @GrpcServerStream needs a server-streaming RPC (returns (stream ...))`);
  }
}
