import { credentials, loadPackageDefinition, Metadata, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { AGENT_RUNTIME_ADMIN_PROTO, PROTO_LOADER_OPTIONS, protoPath } from '@app/contracts';
import { type AnyEvent, replayDecisions } from '@app/domain';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { agentsProjected, type GrpcReply, refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { httpClient } from '../../support/http';
import { freshId } from '../../support/postgres';

/** A client of agent_runtime.admin.v1.AgentRuntimeAdmin: `call(method, request, token)`, never rejects. */
function adminGrpcClient(app: TestApp) {
  const definition = loadPackageDefinition(loadSync(protoPath(AGENT_RUNTIME_ADMIN_PROTO), PROTO_LOADER_OPTIONS));
  const Service = (definition.agent_runtime as any).admin.v1.AgentRuntimeAdmin;
  const client = new Service(app.grpcAddress, credentials.createInsecure());
  const call = (method: string, request: object, token: string) =>
    new Promise<GrpcReply>((resolve) => {
      const meta = new Metadata();
      meta.set('authorization', `Bearer ${token}`);
      client[method](request, meta, (error: ServiceError | null, reply: unknown) => resolve({ error, reply }));
    });
  return { call, close: () => client.close() };
}

/** One millisecond after an instant: a cut-off that takes an item completed at it. */
const justAfter = (instant: string) => new Date(Date.parse(instant) + 1).toISOString();

/**
 * Archiving (docs/decisions/0034) over HTTP and gRPC on the real runtime: completed items leave
 * the live state, the read model keeps answering for them, their ids stay reserved, only admin
 * tokens may archive, and the stream still replays to every recorded decision.
 */
describe('archiving completed work items', () => {
  let app: TestApp;
  let admin: ReturnType<typeof httpClient>;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let adminRpc: ReturnType<typeof adminGrpcClient>;
  const agents: string[] = [];

  /** A fresh agent with w-done completed and w-open open, and one recorded decision. */
  async function agentWithHistory(scoped: ReturnType<typeof httpClient>, id: string) {
    expect((await admin('POST', '/v1/agents', { agent_id: id })).status).toBe(201);
    const base = `/v1/agents/${id}/work-items`;
    for (const work_item_id of ['w-done', 'w-open'])
      expect((await scoped('POST', base, { work_item_id, objective: `objective of ${work_item_id}` })).status).toBe(
        201,
      );
    const done = await scoped('POST', `${base}/w-done/complete`, {});
    expect(done.status).toBe(200);
    // A recorded decision (a tick for w-open: a queued message naming an item keeps that item live).
    expect((await scoped('POST', `/v1/agents/${id}/activations`, {})).status).toBe(200);
    return { base, completedAt: done.body.work_item.completed_at as string };
  }

  beforeAll(async () => {
    agents.push(freshId('agent'), freshId('agent'));
    app = await startTestApp({ tokens: `tok-admin=*;tok-http=${agents[0]};tok-grpc=${agents[1]}` });
    admin = httpClient(app, 'tok-admin');
    grpc = runtimeGrpcClient(app);
    adminRpc = adminGrpcClient(app);
  });
  afterAll(async () => {
    grpc?.close();
    adminRpc?.close();
    await app?.close();
  });

  describe('over HTTP', () => {
    const scoped = () => httpClient(app, 'tok-http');
    let base: string;
    let completedAt: string;
    let archive: string;

    beforeAll(async () => {
      ({ base, completedAt } = await agentWithHistory(scoped(), agents[0]));
      archive = `/v1/admin/agents/${agents[0]}/archive`;
    });

    it('refuses a token that is not admin (403) and a cut-off that is not an instant (400), writing nothing', async () => {
      await agentsProjected(app, agents[0]);
      const revision = (await admin('GET', `/v1/agents/${agents[0]}`)).body.revision;
      const forbidden = await scoped()('POST', archive, { completed_before: justAfter(completedAt) });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe('forbidden');
      const invalid = await admin('POST', archive, { completed_before: 'last week' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.code).toBe('validation_failed');
      expect((await admin('POST', archive, {})).status).toBe(400);
      await agentsProjected(app, agents[0]);
      expect((await admin('GET', `/v1/agents/${agents[0]}`)).body.revision).toBe(revision);
    });

    it('archives the completed item: the reply names it, and nothing older remains the next time', async () => {
      const none = await admin('POST', archive, { completed_before: completedAt });
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ archived: false, work_item_ids: [] });
      const reply = await admin('POST', archive, { completed_before: justAfter(completedAt) });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        agent_id: agents[0],
        completed_before: justAfter(completedAt),
        archived: true,
        work_item_ids: ['w-done'],
      });
      expect(reply.body.counts).toEqual(expect.objectContaining({ messages: expect.any(Number) }));
      expect(reply.body.position).toMatch(/^\d+$/);
      const again = await admin('POST', archive, { completed_before: justAfter(completedAt) });
      expect(again.body).toMatchObject({ archived: false, work_item_ids: [] });

      const item = await admin('GET', `${base}/w-done?min_position=${reply.body.position}`);
      expect(item.status).toBe(200);
      expect(item.body).toMatchObject({ id: 'w-done', state: 'completed', archived: true });
      expect((await admin('GET', `${base}/w-open`)).body.archived).toBeUndefined();
    });

    it('lists archived items only with filter=archived (all and completed leave them out)', async () => {
      await agentsProjected(app, agents[0]);
      const ids = async (filter: string) =>
        (await admin('GET', `${base}?filter=${filter}`)).body.items.map((i: { id: string }) => i.id);
      expect(await ids('archived')).toEqual(['w-done']);
      expect(await ids('all')).toEqual(['w-open']);
      expect(await ids('completed')).toEqual([]);
      expect((await admin('GET', `${base}?filter=archived`)).body.total).toBe(1);
    });

    it('keeps an archived id reserved: creating it again is 409, a repeat of its own create still answers', async () => {
      const reused = await scoped()('POST', base, { work_item_id: 'w-done', objective: 'again' });
      expect(reused.status).toBe(409);
      expect(reused.body.error).toMatchObject({ code: 'conflict', details: { reason: 'already_exists' } });
      const keyed = { 'idempotency-key': 'create-w-keyed' };
      const first = await scoped()('POST', base, { work_item_id: 'w-keyed', objective: 'keyed' }, keyed);
      expect(first.status).toBe(201);
      expect((await scoped()('POST', base, { work_item_id: 'w-keyed', objective: 'keyed' }, keyed)).status).toBe(201);
    });

    it("replays the agent's stream, archive event included, to every recorded decision", async () => {
      expect((await scoped()('POST', `/v1/agents/${agents[0]}/activations`, {})).status).toBe(200);
      const store = app.runtime.app.get<EventStore>(EVENT_STORE);
      const events = await store.readStream(agentStream(agents[0]));
      expect(events.map((e) => e.type)).toContain('WorkItemsArchived');
      const replay = replayDecisions(events.map((e) => ({ type: e.type, data: e.data }) as AnyEvent));
      expect(replay.entries.length).toBeGreaterThanOrEqual(2);
      expect(replay.mismatches).toEqual([]);
      expect(replay.state.work_items.has('w-done')).toBe(false);
    });
  });

  describe('over gRPC', () => {
    let completedAt: string;

    beforeAll(async () => {
      ({ completedAt } = await agentWithHistory(httpClient(app, 'tok-grpc'), agents[1]));
    });

    it('refuses a token that is not admin (PERMISSION_DENIED) and archives with an admin token', async () => {
      const request = { agent_id: agents[1], completed_before: justAfter(completedAt) };
      const forbidden = refusalOf(await adminRpc.call('ArchiveWorkItems', request, 'tok-grpc'));
      expect(forbidden).toMatchObject({ code: 7, errorCode: 'forbidden' });
      const invalid = refusalOf(await adminRpc.call('ArchiveWorkItems', { agent_id: agents[1] }, 'tok-admin'));
      expect(invalid).toMatchObject({ code: 3, errorCode: 'validation_failed' });
      const { error, reply } = await adminRpc.call('ArchiveWorkItems', request, 'tok-admin');
      expect(error).toBeNull();
      expect(reply).toMatchObject({ agent_id: agents[1], archived: true, work_item_ids: ['w-done'] });
      expect(reply.position).toMatch(/^\d+$/);
    });

    it('reads the archived item, lists it with filter "archived", and refuses its id (ALREADY_EXISTS)', async () => {
      const scoped = grpc.as('tok-grpc');
      await agentsProjected(app, agents[1]);
      const item = await scoped('GetWorkItem', { agent_id: agents[1], work_item_id: 'w-done' });
      expect(item.error).toBeNull();
      expect(item.reply).toMatchObject({ id: 'w-done', state: 'completed', archived: true });
      const archived = await scoped('ListWorkItems', { agent_id: agents[1], filter: 'archived' });
      expect(archived.reply.items.map((i: { id: string }) => i.id)).toEqual(['w-done']);
      const all = await scoped('ListWorkItems', { agent_id: agents[1], filter: 'all' });
      expect(all.reply.items.map((i: { id: string }) => i.id)).toEqual(['w-open']);
      const reused = refusalOf(
        await scoped('CreateWorkItem', { agent_id: agents[1], work_item_id: 'w-done', objective: 'x' }),
      );
      expect(reused).toMatchObject({ code: 6, errorCode: 'conflict', details: { reason: 'already_exists' } });
    });
  });
});
