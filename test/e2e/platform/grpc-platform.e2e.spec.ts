import { join } from 'node:path';
import {
  credentials,
  loadPackageDefinition,
  Metadata,
  status as GrpcStatus,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { RUNTIME_GRPC_SERVICE } from '@app/contracts';
import { startTestApp, type TestApp } from '../../support/app';
import { ProbeModule } from './support/probe.module';

type Unary = (
  request: object,
  metadata: Metadata,
  callback: (error: ServiceError | null, reply: Record<string, unknown>) => void,
) => void;
type UnaryClient = Client & Record<string, Unary>;

function clientFor(file: string, service: string[], address: string): UnaryClient {
  const definition = loadPackageDefinition(
    loadSync(file, { keepCase: true, longs: String, enums: String, defaults: true }),
  );
  const Constructor = service.reduce<any>((node, part) => node[part], definition);
  return new Constructor(address, credentials.createInsecure(), {
    'grpc.max_send_message_length': 4 * 1024 * 1024,
  }) as UnaryClient;
}

function invoke(client: UnaryClient, method: string, request: object, token?: string) {
  const metadata = new Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return new Promise<{ error: ServiceError | null; reply?: Record<string, unknown> }>((resolve) => {
    client[method]!.call(client, request, metadata, (error, reply) => resolve({ error, reply }));
  });
}

describe('the gRPC server of the runtime', () => {
  let app: TestApp;
  let health: UnaryClient;
  let probe: UnaryClient;
  beforeAll(async () => {
    app = await startTestApp({ modules: [ProbeModule] });
    health = clientFor(healthProtoPath, ['grpc', 'health', 'v1', 'Health'], app.grpcAddress!);
    probe = clientFor(join(__dirname, 'support', 'probe.proto'), ['platform_test', 'v1', 'Probe'], app.grpcAddress!);
  });
  afterAll(async () => {
    health?.close();
    probe?.close();
    await app?.close();
  });

  it.each(['', RUNTIME_GRPC_SERVICE, 'platform_test.v1.Probe'])(
    'reports %j SERVING on the standard health service',
    async (service) => {
      const { error, reply } = await invoke(health, 'Check', { service });
      expect(error).toBeNull();
      expect(reply).toEqual({ status: 'SERVING' });
    },
  );

  it('answers NOT_FOUND for an unknown health service name', async () => {
    expect((await invoke(health, 'Check', { service: 'nope.v1.Nope' })).error?.code).toBe(GrpcStatus.NOT_FOUND);
  });

  it('refuses a call without a token: UNAUTHENTICATED', async () => {
    expect((await invoke(probe, 'Ping', { agent_id: 'agent-a' })).error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
  });

  it("refuses another agent's token: PERMISSION_DENIED", async () => {
    const { error } = await invoke(probe, 'Ping', { agent_id: 'agent-a' }, 'tok-c');
    expect(error?.code).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(error?.metadata.get('error-code')).toEqual(['forbidden']);
  });

  it('serves a token on its own agent, int64 as a decimal string', async () => {
    const { error, reply } = await invoke(probe, 'Ping', { agent_id: 'agent-b' }, 'tok-a');
    expect(error).toBeNull();
    expect(reply).toEqual({ agent_id: 'agent-b', caller: 'token-1', revision: '12345678901234567' });
  });

  it('keeps admin-only methods for the admin token', async () => {
    expect((await invoke(probe, 'AdminPing', {}, 'tok-a')).error?.code).toBe(GrpcStatus.PERMISSION_DENIED);
    expect((await invoke(probe, 'AdminPing', {}, 'tok-admin')).reply).toMatchObject({ caller: 'token-3' });
  });

  it.each([
    ['invariant', GrpcStatus.FAILED_PRECONDITION, 'invariant_violated'],
    ['not-found', GrpcStatus.NOT_FOUND, 'not_found'],
    ['revision', GrpcStatus.ABORTED, 'conflict'],
    ['store', GrpcStatus.UNAVAILABLE, 'unavailable'],
    ['other', GrpcStatus.INTERNAL, 'internal'],
  ])('maps a %s failure to status %i', async (kind, code, wire) => {
    const { error } = await invoke(probe, 'Fail', { agent_id: 'agent-a', kind }, 'tok-a');
    expect(error?.code).toBe(code);
    expect(error?.metadata.get('error-code')).toEqual([wire]);
    expect(error?.details).not.toMatch(/10\.1\.2\.3|password|secret\.ts/);
  });

  it('carries details in trailers: current_revision of a stale write', async () => {
    const { error } = await invoke(probe, 'Fail', { agent_id: 'agent-a', kind: 'revision' }, 'tok-a');
    expect(JSON.parse(String(error?.metadata.get('error-details')[0]))).toEqual({ current_revision: '7' });
  });

  it('refuses a message over 1 MiB: RESOURCE_EXHAUSTED', async () => {
    const { error } = await invoke(
      probe,
      'Ping',
      { agent_id: 'agent-a', payload: 'x'.repeat(1024 * 1024 + 1) },
      'tok-a',
    );
    expect(error?.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
  });
});
