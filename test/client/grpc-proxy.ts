import {
  credentials,
  loadPackageDefinition,
  Metadata,
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type ClientReadableStream,
  type ServerWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { AGENT_RUNTIME_PROTO, PROTO_LOADER_OPTIONS, protoPath } from '@app/contracts';

type StreamRpc = (request: object, metadata: Metadata) => ClientReadableStream<unknown>;

/**
 * A gRPC server in front of the runtime that serves WatchEvents and WatchChanges by forwarding
 * them, and ends its first call after `cutAfter` messages with UNAVAILABLE (`error-code:
 * unavailable`), as the runtime does when it shuts down: the server side of a dropped stream.
 * It records each call's `after` and counts the calls its client cancelled.
 */
export async function cuttingGrpcProxy(target: string, cutAfter: number) {
  const definition = loadPackageDefinition(loadSync(protoPath(AGENT_RUNTIME_PROTO), PROTO_LOADER_OPTIONS));
  const Service = (definition.agent_runtime as any).v1.AgentRuntime;
  const upstream = new Service(target, credentials.createInsecure()) as Record<string, StreamRpc> & {
    close(): void;
  };
  const calls: Array<{ rpc: string; after?: string }> = [];
  let cancelled = 0;
  const forward = (rpc: string) => (call: ServerWritableStream<{ after?: string }, unknown>) => {
    const index = calls.push({ rpc, after: call.request.after });
    const upstreamCall = upstream[rpc].call(upstream, call.request, call.metadata);
    let forwarded = 0;
    let done = false;
    const finish = (error?: Partial<ServiceError>) => {
      if (done) return;
      done = true;
      upstreamCall.cancel();
      if (error) call.emit('error', error);
      else call.end();
    };
    call.on('cancelled', () => {
      cancelled += 1;
      finish();
    });
    upstreamCall.on('error', (error: ServiceError) => finish(error));
    upstreamCall.on('end', () => finish());
    upstreamCall.on('data', (message) => {
      if (done) return;
      if (index === 1 && forwarded === cutAfter) {
        const metadata = new Metadata();
        metadata.set('error-code', 'unavailable');
        return finish({ code: GrpcStatus.UNAVAILABLE, details: 'the proxy drops the stream', metadata });
      }
      forwarded += 1;
      call.write(message);
    });
  };
  const server = new Server();
  server.addService(Service.service, { WatchEvents: forward('WatchEvents'), WatchChanges: forward('WatchChanges') });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    url: `grpc://127.0.0.1:${port}`,
    calls,
    cancelled: () => cancelled,
    close: async () => {
      upstream.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}
