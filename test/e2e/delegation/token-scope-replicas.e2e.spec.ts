import { status as GrpcStatus } from '@grpc/grpc-js';
import { PRIVATE_CHILDREN, type PrivateChildren } from '@app/application';
import { startTestApp, type TestApp } from '../../support/app';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { isolatedDatabaseUrl } from '../../support/postgres';
import { DELEGATION_TOKENS } from './delegation-suite';

/*
 * Issue 17 item 1, "a token scoped to the parent also covers the private children it spawns", on
 * a second replica right after the spawn reply. Two API processes on one store and no projector
 * at all: the second replica's read-model refresh can never learn the child, so what lets the
 * parent's token through there is the store (a miss resolved once through the child's stream).
 */
describe('a parent token covers its private child on another replica at once', () => {
  let a: TestApp;
  let b: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;

  beforeAll(async () => {
    const env = { DATABASE_URL: await isolatedDatabaseUrl('token-scope'), RUNTIME_ROLE: 'api' };
    a = await startTestApp({ tokens: DELEGATION_TOKENS, env });
    b = await startTestApp({ tokens: DELEGATION_TOKENS, env });
    grpc = runtimeGrpcClient(b);
    const admin = httpClient(a, 'tok-admin');
    expect((await admin('POST', '/v1/agents', { agent_id: 'parent-1' })).status).toBe(201);
    expect((await admin('POST', '/v1/agents', { agent_id: 'other-1' })).status).toBe(201);
    const created = await httpClient(a, 'tok-parent-0123456789')('POST', '/v1/agents/parent-1/work-items', {
      work_item_id: 'w-parent',
      objective: 'Ship it',
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    grpc?.close();
    await b?.close();
    await a?.close();
  });

  const spawn = (body: object) =>
    httpClient(a, 'tok-parent-0123456789')('POST', '/v1/agents/parent-1/spawn', {
      work_item_id: 'w-parent',
      ...body,
    });
  const childrenOf = (app: TestApp) => app.runtime.app.get<PrivateChildren>(PRIVATE_CHILDREN);

  it('given a spawn on replica A, the parent token acts on the child on replica B right after the reply (HTTP and gRPC)', async () => {
    const spawned = await spawn({ workspace_mode: 'private_child', agent_id: 'kid-1', initial_message: 'Look' });
    expect(spawned.status).toBe(201);
    expect(childrenOf(b).parentOf('kid-1')).toBeNull();

    const onB = httpClient(b, 'tok-parent-0123456789');
    const list = await onB('GET', '/v1/agents/kid-1/delegations');
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([expect.objectContaining({ direction: 'parent', parent_agent_id: 'parent-1' })]);
    const item = await onB('POST', '/v1/agents/kid-1/work-items', { work_item_id: 'w-kid', objective: 'Look' });
    expect(item.status).toBe(201);
    expect(childrenOf(b).parentOf('kid-1')).toBe('parent-1');

    const second = await spawn({ workspace_mode: 'private_child', agent_id: 'kid-2', initial_message: 'Again' });
    expect(second.status).toBe(201);
    const overGrpc = await grpc.as('tok-parent-0123456789')('ListDelegations', { agent_id: 'kid-2' });
    expect(overGrpc.error).toBeNull();
    expect(overGrpc.reply.items).toEqual([expect.objectContaining({ parent_agent_id: 'parent-1' })]);
  });

  it('keeps the child from other tokens, a public child from the parent token, and answers 403 for an unknown agent', async () => {
    expect((await spawn({ workspace_mode: 'private_child', agent_id: 'kid-3', initial_message: 'x' })).status).toBe(
      201,
    );
    const other = httpClient(b, 'tok-other-01234567');
    const refused = await other('GET', '/v1/agents/kid-3/delegations');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden' });
    const pub = await httpClient(a, 'tok-parent-0123456789')('POST', '/v1/agents/parent-1/spawn', {
      workspace_mode: 'public_named',
      agent_id: 'pub-1',
    });
    expect(pub.status).toBe(201);
    const onB = httpClient(b, 'tok-parent-0123456789');
    expect((await onB('GET', '/v1/agents/pub-1/delegations')).status).toBe(403);
    expect((await onB('GET', '/v1/agents/nobody-1/delegations')).status).toBe(403);
    const grpcRefused = await grpc.as('tok-other-01234567')('ListDelegations', { agent_id: 'kid-3' });
    expect(refusalOf(grpcRefused)).toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    // Nothing was written for a refused command.
    const write = await other('POST', '/v1/agents/kid-3/work-items', { work_item_id: 'w-x', objective: 'x' });
    expect(write.status).toBe(403);
    const kid = await httpClient(b, 'tok-admin')('GET', '/v1/agents/kid-3/events?limit=100');
    expect(kid.body.items.map((e: { type: string }) => e.type)).not.toContain('WorkItemCreated');
  });
});
