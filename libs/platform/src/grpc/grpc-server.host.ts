import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  Server,
  ServerCredentials,
  setLogger,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { loadProtoRoot, loadServiceDefinition } from '@app/contracts';
import { RUNTIME_GRPC_SERVICE } from '@app/contracts';
import { RUNTIME_CONFIG } from '../config/config.providers';
import { dialableHost, hostPort } from '../config/listen-address';
import type { RuntimeConfig } from '../config/runtime-config';
import { MAX_BODY_BYTES } from '../http/fastify-setup';
import { LOGGER, type Logger, TRACING, type Tracing } from '@app/core';
import { READ_YOUR_WRITES, type ReadYourWrites, REQUEST_AUTHORIZER, type RequestAuthorizer } from '@app/application';
import { RATE_LIMITER, type RateLimiter } from '../security/rate-limiter';
import { LOGIN_THROTTLE } from '../security/rate-limiting';
import type { LoginThrottle } from '../security/login-throttle';
import { createUnaryHandler, MALFORMED_REQUEST } from './grpc-call';
import { addReflectionService } from './grpc-reflection';
import { createServerStreamHandler, OpenGrpcStreams, type GrpcStreamInvoker } from './grpc-stream';
import { replyMapperFor } from './grpc-reply';
import { transportRefusalTrailers } from './grpc-transport-refusals';
import { assertImplements, mergeGrpcProviders, type GrpcProvider } from './grpc-services';
import { grpcServiceOf } from './grpc.decorators';
import { OtelTracing } from '../tracing/otel-tracing';

/** Same limit as HTTP request bodies: larger requests fail with RESOURCE_EXHAUSTED and `payload_too_large`. */
export const MAX_GRPC_MESSAGE_BYTES = MAX_BODY_BYTES;
const SHUTDOWN_GRACE_MS = 5_000;
/**
 * HTTP/2 keepalive pings on every connection (docs/decisions/0026-grpc-streams.md): a peer
 * that stops answering (gone without closing) loses its connection, so its streams end and
 * release their subscriptions; the pings also keep idle streams open through proxies.
 */
export const GRPC_KEEPALIVE_MS = 30_000;
export const GRPC_KEEPALIVE_TIMEOUT_MS = 10_000;

/**
 * The gRPC server of this process (@grpc/grpc-js, see docs/decisions/0003-platform.md):
 * the standard health service plus every service whose RPCs providers decorated with
 * @GrpcService implement, found at bootstrap and merged per service (a feature's RPCs per
 * provider). Replies are mapped to their response messages by replyMapperFor. Listens on
 * GRPC_PORT; drains on shutdown before HTTP closes.
 */
@Injectable()
export class GrpcServerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private server: Server | null = null;
  private health: HealthImplementation | null = null;
  private boundPort: number | null = null;
  private readonly streams = new OpenGrpcStreams();
  private readonly log: Logger;

  constructor(
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(REQUEST_AUTHORIZER) private readonly authorizer: RequestAuthorizer,
    private readonly discovery: DiscoveryService,
    @Optional() @Inject(RATE_LIMITER) private readonly limiter?: RateLimiter,
    @Optional() @Inject(LOGIN_THROTTLE) private readonly loginThrottle?: LoginThrottle | null,
    @Optional() @Inject(READ_YOUR_WRITES) private readonly readYourWrites?: ReadYourWrites,
    @Optional() @Inject(TRACING) private readonly tracing?: Tracing,
  ) {
    this.log = logger.child({ component: 'grpc' });
  }

  /** A dialable `host:port` once bound (loopback when bound to every interface), else null. */
  get address(): string | null {
    return this.boundPort === null ? null : hostPort(dialableHost(this.config.host), this.boundPort);
  }

  /** Server-streaming calls being served now. */
  get openStreams(): number {
    return this.streams.count;
  }

  /** What the server is bound to (HOST and the port: `0.0.0.0:50051` is every interface), else null. */
  get listening(): string | null {
    return this.boundPort === null ? null : hostPort(this.config.host, this.boundPort);
  }

  async onApplicationBootstrap(): Promise<void> {
    // grpc-js writes its own diagnostics to console.error: route them into the JSON log.
    const line = (args: unknown[]) => args.map(String).join(' ');
    setLogger({
      error: (...args: unknown[]) => this.log.warn({ source: 'grpc-js' }, line(args)),
      info: (...args: unknown[]) => this.log.info({ source: 'grpc-js' }, line(args)),
      debug: (...args: unknown[]) => this.log.debug({ source: 'grpc-js' }, line(args)),
    });
    const server = new Server({
      'grpc.max_receive_message_length': MAX_GRPC_MESSAGE_BYTES,
      'grpc.keepalive_time_ms': GRPC_KEEPALIVE_MS,
      'grpc.keepalive_timeout_ms': GRPC_KEEPALIVE_TIMEOUT_MS,
      // First: it must receive grpc-js's base call (see transportRefusalTrailers).
      interceptors: [transportRefusalTrailers(MAX_GRPC_MESSAGE_BYTES)],
    });
    const health = new HealthImplementation({ '': 'SERVING', [RUNTIME_GRPC_SERVICE]: 'SERVING' });
    health.addToServer(server);
    const { services, protos } = this.registerServices(server);
    for (const name of services) health.setStatus(name, 'SERVING');
    if (this.config.grpcReflection) addReflectionService(server, protos);
    const target = hostPort(this.config.host, this.config.grpcPort);
    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(target, ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(new Error(`gRPC cannot listen on ${target}: ${error.message}`)) : resolve(port),
      ),
    );
    this.server = server;
    this.health = health;
    const reflection = this.config.grpcReflection === true;
    this.log.info({ address: this.address, listening: this.listening, services, reflection }, 'gRPC listening');
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    this.health?.setStatus('', 'NOT_SERVING');
    this.health?.setStatus(RUNTIME_GRPC_SERVICE, 'NOT_SERVING');
    // Streams never end by themselves: end them (UNAVAILABLE, resume elsewhere) so the drain can finish.
    await this.streams.endAll();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, SHUTDOWN_GRACE_MS);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.log.info('gRPC stopped');
  }

  /** Every @GrpcService provider, merged per service: each RPC of the .proto must have exactly one handler. */
  private registerServices(server: Server): { services: string[]; protos: string[] } {
    const providers: GrpcProvider[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const options = grpcServiceOf(wrapper.metatype);
      if (!options) continue;
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.isDependencyTreeStatic())
        throw new Error(`gRPC service ${options.service} must be a singleton provider`);
      providers.push({ options, type: wrapper.metatype as GrpcProvider['type'], instance });
    }
    const deps = {
      authorizer: this.authorizer,
      logger: this.log,
      limiter: this.limiter,
      loginThrottle: this.loginThrottle ?? undefined,
      readYourWrites: this.readYourWrites,
      tracing: this.tracing instanceof OtelTracing ? this.tracing : undefined,
    };
    const names: string[] = [];
    const protos: string[] = [];
    for (const merged of mergeGrpcProviders(providers)) {
      const definition = loadServiceDefinition(merged.proto, merged.service);
      assertImplements(merged, definition);
      const messages = loadProtoRoot(merged.proto).lookupService(merged.service);
      const implementation: UntypedServiceImplementation = {};
      for (const [method, handler] of merged.handlers) {
        const toReply = replyMapperFor(messages.methods[method]!.resolvedResponseType!, merged.replyAdapters);
        const path = definition[method]!.path;
        implementation[method] =
          handler.binding.kind === 'server_stream'
            ? createServerStreamHandler(
                deps,
                path,
                handler.binding,
                handler.invoke as GrpcStreamInvoker,
                this.streams,
                toReply,
              )
            : createUnaryHandler(deps, path, handler.binding, handler.invoke, toReply);
      }
      server.addService(withTolerantDeserializers(definition), implementation);
      names.push(merged.service);
      protos.push(merged.proto);
    }
    return { services: names, protos };
  }
}

/** Each method's request deserializer, answering MALFORMED_REQUEST instead of throwing (INVALID_ARGUMENT, not INTERNAL). */
export function withTolerantDeserializers(definition: ServiceDefinition): ServiceDefinition {
  const out: Record<string, ServiceDefinition[string]> = {};
  for (const [name, method] of Object.entries(definition)) {
    const deserialize = method.requestDeserialize;
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        try {
          return deserialize(bytes);
        } catch {
          return MALFORMED_REQUEST;
        }
      },
    };
  }
  return out;
}
