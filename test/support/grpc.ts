import {
  credentials,
  loadPackageDefinition,
  Metadata,
  type Client,
  type ClientReadableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { AGENT_RUNTIME_PROTO, PROTO_LOADER_OPTIONS, protoPath } from '@app/contracts';
import type { AgentState } from '@app/domain';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore, type StoredEvent } from '@app/event-store';
import { PROJECTION_RUNNER } from '@app/read-models';
import type { ProjectionRunner } from '@app/read-models';
import type { TestApp } from './app';

type UnaryMethod = (
  request: object,
  metadata: Metadata,
  callback: (error: ServiceError | null, reply: unknown) => void,
) => void;
type RuntimeClient = Client & Record<string, UnaryMethod>;

export interface GrpcReply<T = any> {
  error: ServiceError | null;
  reply: T;
}

/** A refusal as the gRPC edge sends it: status, and the HTTP envelope's code and details from the trailers. */
export interface GrpcRefusal {
  code: number;
  message: string;
  errorCode: string | undefined;
  details: Record<string, any>;
}

/**
 * A real @grpc/grpc-js client of `agent_runtime.v1.AgentRuntime` on the test app, loaded
 * with the server's proto-loader options (snake_case, int64 as strings, defaults on).
 * The send limit is above 1 MiB so specs can check the server's own limit.
 */
export function runtimeGrpcClient(app: TestApp) {
  if (!app.grpcAddress) throw new Error('this test app runs no gRPC server');
  const definition = loadPackageDefinition(loadSync(protoPath(AGENT_RUNTIME_PROTO), PROTO_LOADER_OPTIONS));
  const Service = (definition.agent_runtime as any).v1.AgentRuntime;
  const client = new Service(app.grpcAddress, credentials.createInsecure(), {
    'grpc.max_send_message_length': 4 * 1024 * 1024,
  }) as RuntimeClient;

  /**
   * One call with an optional bearer token; resolves with the error or the reply, never rejects.
   * A server-streaming RPC resolves once the call is admitted (the response headers: reply
   * undefined) or refused, and is then cancelled: what a table of every RPC can check.
   */
  function call<T = any>(
    method: string,
    request: object,
    token?: string,
    metadata: Record<string, string> = {},
  ): Promise<GrpcReply<T>> {
    const meta = new Metadata();
    if (token) meta.set('authorization', `Bearer ${token}`);
    for (const [key, value] of Object.entries(metadata)) meta.set(key, value);
    const rpc = client[method];
    if (typeof rpc !== 'function') throw new Error(`AgentRuntime has no method ${method}`);
    if ((rpc as { responseStream?: boolean }).responseStream) return admission(rpc, request, meta);
    return new Promise((resolve) =>
      rpc.call(client, request, meta, (error, reply) => resolve({ error, reply: reply as T })),
    );
  }

  function admission(rpc: UnaryMethod, request: object, meta: Metadata): Promise<GrpcReply> {
    return new Promise((resolve) => {
      const stream = (rpc as unknown as (request: object, meta: Metadata) => ClientReadableStream<unknown>).call(
        client,
        request,
        meta,
      );
      let settled = false;
      const settle = (result: GrpcReply) => {
        if (settled) return;
        settled = true;
        resolve(result);
        stream.cancel();
      };
      stream.on('metadata', () => settle({ error: null, reply: undefined }));
      stream.on('data', (reply) => settle({ error: null, reply }));
      stream.on('error', (error: ServiceError) => settle({ error, reply: undefined }));
      stream.on('status', () => settle({ error: null, reply: undefined }));
    });
  }

  /** The same call as a given token: `as('tok-mine')('CreateWorkItem', {...})`. */
  const as =
    (token?: string) =>
    <T = any>(method: string, request: object, metadata?: Record<string, string>) =>
      call<T>(method, request, token, metadata);

  /** One unary call that the spec can cancel (as a client that goes away would). */
  function cancellable<T = any>(method: string, request: object, token?: string) {
    const meta = new Metadata();
    if (token) meta.set('authorization', `Bearer ${token}`);
    let cancel: () => void = () => undefined;
    const result = new Promise<GrpcReply<T>>((resolve) => {
      const pending = (client[method] as unknown as (...args: unknown[]) => { cancel(): void }).call(
        client,
        request,
        meta,
        (error: ServiceError | null, reply: unknown) => resolve({ error, reply: reply as T }),
      );
      cancel = () => pending.cancel();
    });
    return { result, cancel };
  }

  return { call, as, client, cancellable, close: () => client.close() };
}

/** The refusal carried by a failed call (throws when the call succeeded). */
export function refusalOf(result: GrpcReply): GrpcRefusal {
  const error = result.error;
  if (!error) throw new Error(`expected a refusal, got a reply: ${JSON.stringify(result.reply)}`);
  const raw = error.metadata?.get('error-details')[0];
  return {
    code: error.code,
    message: error.details,
    errorCode: error.metadata?.get('error-code')[0] as string | undefined,
    details: typeof raw === 'string' ? JSON.parse(raw) : {},
  };
}

/**
 * Waits until the in-process projector has applied every event of these agents' streams.
 * Unlike a head read through `readAll` (which hides events behind any transaction still
 * running anywhere in the cluster, e.g. another suite's append), the stream's own last
 * position is always known, so this never returns early while other suites write.
 */
export async function agentsProjected(app: TestApp, ...agentIds: string[]): Promise<void> {
  const store = app.runtime.app.get<EventStore>(EVENT_STORE);
  const runner = app.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
  let last = -1n;
  for (const agentId of agentIds) {
    const [newest] = await store.readStream(agentStream(agentId), { direction: 'backwards', max_count: 1 });
    if (newest && newest.position > last) last = newest.position;
  }
  if (last >= 0n) await runner.waitFor(last);
}

/**
 * The events of an agent that callers wrote: without those of the scheduler worker, which runs
 * in the same app (roles all) and appends on its own schedule (actor `scheduler`). "Nothing was
 * written" means this list did not grow.
 */
export async function callerEventsOf(app: TestApp, agentId: string): Promise<StoredEvent[]> {
  const store = app.runtime.app.get<EventStore>(EVENT_STORE);
  return (await store.readStream(agentStream(agentId))).filter((event) => event.metadata.actor !== 'scheduler');
}
