import { dirname, join } from 'node:path';
import { credentials, loadPackageDefinition, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { startTestApp, type TestApp } from '../../support/app';
import { runtimeGrpcClient } from '../../support/grpc';
import { openGrpcStream, type GrpcStreamReader } from '../../support/grpc-stream';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';

type Change = { agent_id: string; revision: string; position: string; type: string };

type ReflectionReply = {
  list_services_response?: { service: Array<{ name: string }> };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
};

/** One request of gRPC reflection (grpc.reflection.v1) to a server: its reply, or the error of the call. */
async function reflect(address: string, request: object): Promise<{ reply?: ReflectionReply; error?: ServiceError }> {
  const proto = join(dirname(require.resolve('@grpc/reflection')), '..', 'proto', 'grpc', 'reflection', 'v1');
  const definition = loadPackageDefinition(loadSync(join(proto, 'reflection.proto'), { keepCase: true }));
  const Reflection = (definition.grpc as any).reflection.v1.ServerReflection;
  const client = new Reflection(address, credentials.createInsecure());
  try {
    return await new Promise((resolve) => {
      const call = client.ServerReflectionInfo();
      call.on('data', (reply: ReflectionReply) => resolve({ reply }));
      call.on('error', (error: ServiceError) => resolve({ error }));
      call.write(request);
      call.end();
    });
  } finally {
    client.close();
  }
}

describe('the changes feed over gRPC (WatchChanges), and server reflection', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let admin: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let open: Array<GrpcStreamReader<Change>> = [];

  const watch = (token: string | null, request: object = {}) => {
    const stream = openGrpcStream<Change>(grpc, 'WatchChanges', request, token ?? undefined);
    open.push(stream);
    return stream;
  };
  /** Changes up to the first of `type` on `agent`. */
  const until = async (stream: GrpcStreamReader<Change>, agent: string, type: string) => {
    const changes: Change[] = [];
    for (;;) {
      const change = await stream.next();
      changes.push(change);
      if (change.agent_id === agent && change.type === type) return changes;
    }
  };
  const createItem = async (agent: string, request: object = {}) => {
    const result = await admin('CreateWorkItem', { agent_id: agent, objective: 'o', ...request });
    expect(result.error).toBeNull();
    return result.reply as { revision: string };
  };

  beforeAll(async () => {
    app = await startTestApp({
      tokens: `tok-admin=*;tok-mine=${mine}`,
      env: { DATABASE_URL: await isolatedDatabaseUrl('grpc_changes') },
    });
    grpc = runtimeGrpcClient(app);
    admin = grpc.as('tok-admin');
    expect((await admin('RegisterAgent', { agent_id: mine })).error).toBeNull();
    expect((await admin('RegisterAgent', { agent_id: other })).error).toBeNull();
  });
  afterEach(async () => {
    open.forEach((stream) => stream.cancel());
    await Promise.all(open.map((stream) => stream.ended));
    open = [];
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('delivers a change per event once the read models include it, ascending by position', async () => {
    const stream = watch('tok-admin');
    await stream.ready;
    const created = await createItem(mine, { work_item_id: 'w-live' });
    const changes = await until(stream, mine, 'WorkItemCreated');
    // Once the change arrives the read model already has the item.
    expect((await admin('GetWorkItem', { agent_id: mine, work_item_id: 'w-live' })).error).toBeNull();
    expect(changes.at(-1)).toEqual({
      agent_id: mine,
      revision: created.revision,
      position: expect.stringMatching(/^\d+$/),
      type: 'WorkItemCreated',
    });
    const positions = changes.map((change) => BigInt(change.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    await createItem(other);
    expect((await until(stream, other, 'WorkItemCreated')).at(-1)).toMatchObject({ agent_id: other });
  });

  it("never carries another agent's events to a scoped token", async () => {
    const stream = watch('tok-mine');
    await stream.ready;
    await createItem(other, { objective: 'not for you' });
    await createItem(mine, { objective: 'for you' });
    const changes = await until(stream, mine, 'WorkItemCreated');
    expect(changes.map((change) => change.agent_id)).toEqual(changes.map(() => mine));
  });

  it('resumes after the last position received without a gap or a repeat', async () => {
    const first = watch('tok-mine');
    await first.ready;
    await createItem(mine, { work_item_id: 'w-a' });
    const lastSeen = (await until(first, mine, 'WorkItemCreated')).at(-1)!;
    first.cancel();
    await first.ended;
    const created = await createItem(mine, { work_item_id: 'w-b' });
    const resumed = watch('tok-mine', { after: lastSeen.position });
    const missed = await until(resumed, mine, 'WorkItemCreated');
    const expected = Array.from({ length: Number(created.revision) - Number(lastSeen.revision) }, (_, i) =>
      String(Number(lastSeen.revision) + 1 + i),
    );
    expect(missed.map((change) => change.revision)).toEqual(expected);
  });

  it('refuses a bad resume point and a missing token before streaming', async () => {
    const bad = await watch('tok-admin', { after: '-1' }).ended;
    expect({ code: bad?.code, errorCode: bad?.metadata.get('error-code')[0] }).toEqual({
      code: GrpcStatus.INVALID_ARGUMENT,
      errorCode: 'validation_failed',
    });
    expect(bad?.details).toContain('global position');
    expect((await watch(null).ended)?.code).toBe(GrpcStatus.UNAUTHENTICATED);
  });

  it('serves no reflection unless GRPC_REFLECTION=true', async () => {
    const { error } = await reflect(app.grpcAddress!, { list_services: '' });
    expect(error?.code).toBe(GrpcStatus.UNIMPLEMENTED);
  });

  describe('with GRPC_REFLECTION=true', () => {
    let reflecting: TestApp;
    let closing: Promise<void> | undefined;
    beforeAll(async () => {
      reflecting = await startTestApp({ env: { GRPC_REFLECTION: 'true' } });
    });
    afterAll(() => (closing ??= reflecting?.close()));

    it('lists the runtime and health services through reflection, and describes them', async () => {
      const listed = await reflect(reflecting.grpcAddress!, { list_services: '' });
      expect(listed.error).toBeUndefined();
      expect(listed.reply?.list_services_response?.service.map((service) => service.name)).toEqual(
        expect.arrayContaining(['agent_runtime.v1.AgentRuntime', 'grpc.health.v1.Health']),
      );
      const described = await reflect(reflecting.grpcAddress!, {
        file_containing_symbol: 'agent_runtime.v1.AgentRuntime',
      });
      const files = described.reply?.file_descriptor_response?.file_descriptor_proto ?? [];
      expect(files.length).toBeGreaterThan(0);
      expect(Buffer.concat(files).toString('latin1')).toContain('WatchEvents');
    });

    it('ends an open stream with UNAVAILABLE when the server shuts down (resume elsewhere)', async () => {
      const client = runtimeGrpcClient(reflecting);
      try {
        const stream = openGrpcStream<Change>(client, 'WatchChanges', {}, 'tok-admin');
        await stream.ready;
        closing = reflecting.close();
        const error = await stream.ended;
        await closing;
        expect({ code: error?.code, errorCode: error?.metadata.get('error-code')[0] }).toEqual({
          code: GrpcStatus.UNAVAILABLE,
          errorCode: 'unavailable',
        });
      } finally {
        client.close();
      }
    });
  });
});
