import { startTestApp, type TestApp } from '../../support/app';
import { httpClient } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { openSse, type SseConnection, type SseFrame } from './support/sse-client';

type ChangeData = { agent_id: string; revision: string; position: string; type: string };

describe('the changes feed across agents over HTTP (GET /v1/changes)', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let admin: ReturnType<typeof httpClient>;
  let open: SseConnection[] = [];

  const connect = async (token: string, query = '', headers: Record<string, string> = {}) => {
    const connection = await openSse(`${app.baseUrl}/v1/changes${query}`, {
      authorization: `Bearer ${token}`,
      ...headers,
    });
    open.push(connection);
    return connection;
  };
  /** Change frames up to the first whose type is `type` on `agent`. */
  const until = async (connection: SseConnection, agent: string, type: string): Promise<SseFrame[]> => {
    const frames: SseFrame[] = [];
    for (;;) {
      const frame = await connection.next();
      frames.push(frame);
      const data = JSON.parse(frame.data) as ChangeData;
      if (data.agent_id === agent && data.type === type) return frames;
    }
  };
  const changes = (frames: SseFrame[]) => frames.map((frame) => JSON.parse(frame.data) as ChangeData);

  beforeAll(async () => {
    app = await startTestApp({
      tokens: `tok-admin=*;tok-mine=${mine}`,
      env: { DATABASE_URL: await isolatedDatabaseUrl('changes') },
    });
    admin = httpClient(app, 'tok-admin');
    expect((await admin('POST', '/v1/agents', { agent_id: mine })).status).toBe(201);
    expect((await admin('POST', '/v1/agents', { agent_id: other })).status).toBe(201);
  });
  afterEach(() => {
    open.forEach((connection) => connection.close());
    open = [];
  });
  afterAll(() => app?.close());

  it('sends each new event of every agent to an admin once the read models include it: id = position, ascending', async () => {
    const connection = await connect('tok-admin');
    expect(connection.status).toBe(200);
    expect(connection.headers.get('content-type')).toContain('text/event-stream');
    const created = await admin('POST', `/v1/agents/${mine}/work-items`, {
      work_item_id: 'w-live',
      objective: 'Seen live',
    });
    expect(created.status).toBe(201);
    const frames = await until(connection, mine, 'WorkItemCreated');
    // When the change arrives the read model already has the item: a view that reloads on it sees it.
    expect((await admin('GET', `/v1/agents/${mine}/work-items/w-live`)).status).toBe(200);
    expect(frames.every((frame) => frame.event === 'change')).toBe(true);
    const last = changes(frames).pop()!;
    expect(last).toEqual({
      agent_id: mine,
      revision: created.body.revision,
      position: frames.at(-1)!.id,
      type: 'WorkItemCreated',
    });
    const positions = frames.map((frame) => BigInt(frame.id!));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await admin('POST', `/v1/agents/${other}/work-items`, { objective: 'Elsewhere' })).status).toBe(201);
    expect(changes(await until(connection, other, 'WorkItemCreated')).pop()).toMatchObject({ agent_id: other });
  });

  it("never tells a scoped token about another agent's events", async () => {
    const connection = await connect('tok-mine');
    expect((await admin('POST', `/v1/agents/${other}/work-items`, { objective: 'Not for you' })).status).toBe(201);
    expect((await admin('POST', `/v1/agents/${mine}/work-items`, { objective: 'For you' })).status).toBe(201);
    const seen = changes(await until(connection, mine, 'WorkItemCreated'));
    expect(seen.map((change) => change.agent_id)).toEqual(seen.map(() => mine));
  });

  it('resumes after Last-Event-ID (a position) without a gap or a repeat', async () => {
    const first = await connect('tok-admin');
    expect((await admin('POST', `/v1/agents/${mine}/work-items`, { work_item_id: 'w-a', objective: 'A' })).status).toBe(
      201,
    );
    const before = await until(first, mine, 'WorkItemCreated');
    const lastSeen = changes(before).pop()!;
    first.close();
    const created = await admin('POST', `/v1/agents/${mine}/work-items`, { work_item_id: 'w-b', objective: 'B' });
    expect(created.status).toBe(201);
    const resumed = await connect('tok-admin', '?after=0', { 'last-event-id': before.at(-1)!.id! });
    const after = changes(await until(resumed, mine, 'WorkItemCreated')).filter((change) => change.agent_id === mine);
    // Every event of the agent after the last one seen, up to the new item, each once.
    const expected = Array.from({ length: Number(created.body.revision) - Number(lastSeen.revision) }, (_, i) =>
      String(Number(lastSeen.revision) + 1 + i),
    );
    expect(after.map((change) => change.revision)).toEqual(expected);
  });

  it('refuses a bad resume point with the error envelope, and a missing token with 401, before streaming', async () => {
    const bad = await admin('GET', '/v1/changes?after=-1');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', details: { field: 'after' } });
    expect(bad.body.error.message).toContain('global position');
    const anonymous = await fetch(`${app.baseUrl}/v1/changes`);
    expect(anonymous.status).toBe(401);
  });
});
