import { status as GrpcStatus } from '@grpc/grpc-js';
import { startTestApp, type TestApp } from '../../support/app';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';

/** The plan versions of HTTP (`GET .../plan?version=`, `GET .../plan/versions`) over gRPC: GetPlan `version`, ListPlanVersions. */
describe('plan versions over gRPC', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let scoped: ReturnType<typeof httpClient>;
  const call = (method: string, request: object, token = 'tok-mine') =>
    grpc.call(method, { agent_id: mine, ...request }, token);
  const ok = async (method: string, request: object): Promise<any> => {
    const result = await call(method, request);
    expect(result.error).toBeNull();
    return result.reply;
  };

  beforeAll(async () => {
    app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${mine}` });
    grpc = runtimeGrpcClient(app);
    scoped = httpClient(app, 'tok-mine');
    expect((await scoped('POST', '/v1/agents', { agent_id: mine })).status).toBe(201);
    expect((await httpClient(app, 'tok-admin')('POST', '/v1/agents', { agent_id: other })).status).toBe(201);
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('lists the recorded versions newest first, as HTTP does, and reads each back by hash', async () => {
    const created = await ok('CreateWorkItem', { work_item_id: 'w-v', objective: 'versions', plan: '# One\n' });
    const first = created.work_item.plan_artifact;
    const second = (await ok('ReplacePlan', { work_item_id: 'w-v', body: '# Two, longer\n' })).work_item.plan_artifact;
    expect(second.hash).not.toBe(first.hash);

    const versions = await ok('ListPlanVersions', { work_item_id: 'w-v' });
    expect(versions).toEqual({
      items: [
        { hash: second.hash, updated_at: second.updated_at, byte_size: 14 },
        { hash: first.hash, updated_at: first.updated_at, byte_size: 6 },
      ],
      total: 2,
    });
    expect(versions).toEqual((await scoped('GET', `/v1/agents/${mine}/work-items/w-v/plan/versions`)).body);

    expect(await ok('GetPlan', { work_item_id: 'w-v', version: first.hash })).toEqual({ body: '# One\n' });
    expect(await ok('GetPlan', { work_item_id: 'w-v', version: second.hash })).toEqual({ body: '# Two, longer\n' });
    expect(await ok('GetPlan', { work_item_id: 'w-v' })).toEqual({ body: '# Two, longer\n' });
  });

  it("refuses a hash the item never recorded (even another item's), an unknown item, and an empty version", async () => {
    const x = await ok('CreateWorkItem', { work_item_id: 'w-x', objective: 'x', plan: '# Elsewhere\n' });
    await ok('CreateWorkItem', { work_item_id: 'w-y', objective: 'y', plan: '# Here\n' });
    const foreign = x.work_item.plan_artifact.hash;
    for (const [method, request] of [
      ['GetPlan', { work_item_id: 'w-y', version: foreign }],
      ['GetPlan', { work_item_id: 'w-y', version: 'not-a-hash' }],
      ['GetPlan', { work_item_id: 'missing', version: foreign }],
      ['ListPlanVersions', { work_item_id: 'missing' }],
    ] as const) {
      expect([method, refusalOf(await call(method, request)).code]).toEqual([method, GrpcStatus.NOT_FOUND]);
    }
    expect(refusalOf(await call('GetPlan', { work_item_id: 'w-y', version: '' }))).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
      errorCode: 'validation_failed',
      details: { field: 'version' },
    });
  });

  it('needs a read role: UNAUTHENTICATED without a token, PERMISSION_DENIED for another agent', async () => {
    expect((await grpc.call('ListPlanVersions', { agent_id: mine, work_item_id: 'w-v' })).error?.code).toBe(
      GrpcStatus.UNAUTHENTICATED,
    );
    expect(
      refusalOf(await grpc.call('ListPlanVersions', { agent_id: other, work_item_id: 'w-v' }, 'tok-mine')).code,
    ).toBe(GrpcStatus.PERMISSION_DENIED);
  });
});
