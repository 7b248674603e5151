import { Injectable, Module, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { loadSync } from '@grpc/proto-loader';
import { AGENT_RUNTIME_PROTO, PROTO_LOADER_OPTIONS, protoPath, RUNTIME_GRPC_SERVICE } from '@app/contracts';
import { ADMIN_ONLY_ROUTE, PUBLIC_ROUTE, ROUTE_ROLES, type TokenRole } from '@app/application';
import { grpcMethodsOf, grpcServiceOf } from '@app/platform';
import type { TestApp } from '../../../support/app';

/*
 * The route table the security specs iterate over, read from the running app rather than
 * written by hand: a new route or RPC is covered the day it lands, and a spec fails when one is
 * public without being listed here as public by design.
 */

export interface HttpRoute {
  /** GET, POST, ... (Fastify's automatic HEAD twins of GET routes are folded away). */
  method: string;
  /** Fastify's pattern: `/v1/agents/:agent_id/work-items/:work_item_id`. */
  url: string;
}

/**
 * Public by design (docs/reliability.md), and why; everything else must answer 401 without a
 * token. A route that is @Public() and not here fails the spec.
 */
export const PUBLIC_BY_DESIGN: Readonly<Record<string, string>> = {
  'GET /health': 'liveness and readiness for probes and load balancers',
  'GET /health/live': 'liveness for probes: the process answers (no store asked, no data)',
  'GET /health/ready':
    "readiness for probes and load balancers: stores, stalled or lagging projections (positions and counts, no agent's data)",
  'GET /metrics':
    'Prometheus metrics (ADR 0032): @Public() to the guard because it checks its own credential: an admin token, or METRICS_TOKEN when set (401 without it); 404 when METRICS_PORT serves them on a listener of its own',
  'GET /docs': 'the OpenAPI UI',
  'GET /docs-json': 'the OpenAPI document',
  'POST /v1/callbacks/:callback_token':
    'the capability route: the token in the path is the credential (404 for anything wrong)',
  'GET /console': "the operator console's static page: no data; every read it makes carries the operator's token",
  'GET /console/*': "the operator console's static assets (confined to the built folder)",
};
/** Must exist in every build: the spec fails if one disappears or stops being public. */
export const REQUIRED_PUBLIC = [
  'GET /health',
  'GET /health/live',
  'GET /health/ready',
  'GET /docs-json',
  'POST /v1/callbacks/:callback_token',
];
/** Served by @nestjs/swagger next to /docs and /docs-json (the same document as YAML, the UI's assets): public. */
const DOCS_FAMILY = /^GET \/docs(?:-yaml|\/.*)?$/;
export const isPublicByDesign = (route: HttpRoute): boolean =>
  key(route) in PUBLIC_BY_DESIGN || DOCS_FAMILY.test(key(route));

/** Protected routes that name no agent in their path, and how each decides which agents it touches. */
export const TOKEN_ROUTES_WITHOUT_AGENT_PATH: Readonly<Record<string, string>> = {
  'POST /v1/agents': 'the agent_id of the body (checked by the handler: 403 for another agent)',
  'GET /v1/agents': "lists only the token's agents (admin: all)",
  'GET /v1/attention': "lists only the token's agents' items (admin: all)",
  'GET /v1/stranded': "lists only the token's agents' stranded work (admin: all)",
  'GET /v1/changes': "streams only the token's agents' events (admin: all)",
};

/**
 * Token routes that answer a stream that never ends: probed with a live stream by their own
 * spec (test/e2e/audit/changes.http.e2e.spec.ts: a scoped token never hears of another agent).
 */
export const STREAMING_TOKEN_ROUTES: readonly string[] = ['GET /v1/changes'];

export type RouteClass = 'public' | 'agent' | 'admin' | 'token';

/** How a route is protected, or null for a route nobody has classified (the spec names it). */
export function classify(route: HttpRoute): RouteClass | null {
  if (isPublicByDesign(route)) return 'public';
  if (route.url.startsWith('/v1/admin/') || route.url === '/v1/admin') return 'admin';
  if (route.url.includes('/:agent_id')) return 'agent';
  if (key(route) in TOKEN_ROUTES_WITHOUT_AGENT_PATH) return 'token';
  return null;
}

export const key = (route: HttpRoute): string => `${route.method} ${route.url}`;

/**
 * Records every route Fastify registers. Its constructor runs when Nest instantiates the
 * providers, before the router is registered (app.init) and before /docs is set up, so no
 * route escapes it: Nest's, Swagger's, or one added straight onto Fastify.
 */
@Injectable()
export class RouteRecorder {
  readonly routes: HttpRoute[] = [];

  constructor(adapterHost: HttpAdapterHost) {
    const fastify = adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        this.routes.push({ method: String(method).toUpperCase(), url: route.url ?? route.path });
    });
  }
}

/** Add to startTestApp({ modules }) to read the table back with `httpRouteTable(app)`. */
@Module({ providers: [RouteRecorder] })
export class RouteRecorderModule {}

/** Every HTTP route of the app, HEAD twins folded, sorted. */
export function httpRouteTable(app: TestApp): HttpRoute[] {
  const recorded = app.runtime.app.get(RouteRecorder, { strict: false }).routes;
  const seen = new Map<string, HttpRoute>();
  for (const route of recorded) {
    if (route.method === 'HEAD' && recorded.some((other) => other.method === 'GET' && other.url === route.url))
      continue;
    seen.set(key(route), route);
  }
  return [...seen.values()].sort((a, b) => key(a).localeCompare(key(b)));
}

export interface NestRoute extends HttpRoute {
  public: boolean;
  adminOnly: boolean;
  /** Its @Roles() (undefined: none declared). */
  roles: readonly TokenRole[] | undefined;
}

/** The same routes as Nest's controllers declare them, with their @Public()/@AdminOnly() metadata. */
export function nestRouteTable(app: TestApp): NestRoute[] {
  const nest = app.runtime.app;
  const discovery = nest.get(DiscoveryService, { strict: false });
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  const routes: NestRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
    if (!type) continue;
    const base = (Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined) ?? '';
    for (const name of scanner.getAllMethodNames(type.prototype as object)) {
      const handler = (type.prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) continue;
      for (const prefix of [base].flat()) {
        for (const suffix of [path].flat()) {
          routes.push({
            method: RequestMethod[method],
            url: `/${[prefix, suffix]
              .map((part) => part.replace(/^\/+|\/+$/g, ''))
              .filter(Boolean)
              .join('/')}`,
            public: reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, type]) === true,
            adminOnly: reflector.getAllAndOverride<boolean>(ADMIN_ONLY_ROUTE, [handler, type]) === true,
            roles: reflector.getAllAndOverride<readonly TokenRole[] | undefined>(ROUTE_ROLES, [handler, type]),
          });
        }
      }
    }
  }
  return routes.sort((a, b) => key(a).localeCompare(key(b)));
}

/** A path for a route pattern: each `:param` from `values`, or a well-formed id nobody owns. */
export function pathFor(route: HttpRoute, values: Readonly<Record<string, string>>): string {
  return route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) =>
    encodeURIComponent(values[name] ?? `sec-${name.replace(/_/g, '-')}`),
  );
}

export interface GrpcRpc {
  /** `GetAgent` */
  name: string;
  /** `/agent_runtime.v1.AgentRuntime/GetAgent` */
  path: string;
  /** Field names of its request message. */
  requestFields: string[];
}

/** Public by design over gRPC: the capability form of a trigger. */
export const PUBLIC_RPCS: readonly string[] = ['Callback'];
/** RPCs that only an admin token may call (none yet: the admin routes have no RPC). */
export const ADMIN_RPCS: readonly string[] = [];
/**
 * Guarded RPCs whose request names no agent, and how each decides which agents it touches:
 * probed for their scoping by their own spec (test/e2e/grpc/changes-reflection.grpc.e2e.spec.ts).
 */
export const TOKEN_RPCS_WITHOUT_AGENT: Readonly<Record<string, string>> = {
  WatchChanges: "streams only the token's agents' events (admin: all), as GET /v1/changes",
};

/** Every RPC of agent_runtime.v1.AgentRuntime, from the .proto the server loads. */
export function grpcRpcTable(): GrpcRpc[] {
  const definition = loadSync(protoPath(AGENT_RUNTIME_PROTO), PROTO_LOADER_OPTIONS) as unknown as Record<
    string,
    Record<string, { path: string; requestType: { type: { field: { name: string }[] } } }>
  >;
  const service = definition[RUNTIME_GRPC_SERVICE];
  if (!service) throw new Error(`${RUNTIME_GRPC_SERVICE} is not in ${AGENT_RUNTIME_PROTO}`);
  return Object.entries(service)
    .map(([name, method]) => ({
      name,
      path: method.path,
      requestFields: method.requestType.type.field.map((field) => field.name),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export type RpcClass = 'public' | 'agent' | 'admin' | 'token';

/** How an RPC is protected, or null for one nobody has classified (the spec names it). */
export function classifyRpc(rpc: GrpcRpc): RpcClass | null {
  if (PUBLIC_RPCS.includes(rpc.name)) return 'public';
  if (ADMIN_RPCS.includes(rpc.name)) return 'admin';
  if (rpc.requestFields.includes('agent_id')) return 'agent';
  if (rpc.name in TOKEN_RPCS_WITHOUT_AGENT) return 'token';
  return null;
}

/** The roles each RPC of the running app declares (undefined: none), read from its @GrpcService providers. */
export function grpcRoleTable(app: TestApp): Map<string, readonly TokenRole[] | undefined> {
  const discovery = app.runtime.app.get(DiscoveryService, { strict: false });
  const table = new Map<string, readonly TokenRole[] | undefined>();
  for (const wrapper of discovery.getProviders()) {
    const service = grpcServiceOf(wrapper.metatype);
    if (service?.service !== RUNTIME_GRPC_SERVICE) continue;
    for (const binding of grpcMethodsOf(wrapper.metatype)) table.set(binding.method, binding.roles);
  }
  return table;
}
