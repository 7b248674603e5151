import { eventually } from '@app/event-store/testing';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, projected } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { EventStreams } from '../../../apps/runtime/src/audit/event-stream';
import { openSse, type SseConnection, type SseFrame } from './support/sse-client';

describe('an agent stream over HTTP (audit)', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let admin: ReturnType<typeof httpClient>;
  let scoped: ReturnType<typeof httpClient>;
  const events = (query = '') => `/v1/agents/${mine}/events${query}`;
  const createItem = (objective: string) => scoped('POST', `/v1/agents/${mine}/work-items`, { objective });
  const streamOf = (query = '', headers: Record<string, string> = {}) =>
    openSse(`${app.baseUrl}${events(`/stream${query}`)}`, { authorization: 'Bearer tok-mine', ...headers });

  beforeAll(async () => {
    app = await startTestApp({
      tokens: `tok-admin=*;tok-mine=${mine}`,
      env: { DATABASE_URL: await isolatedDatabaseUrl('audit') },
    });
    admin = httpClient(app, 'tok-admin');
    scoped = httpClient(app, 'tok-mine');
    expect((await scoped('POST', '/v1/agents', { agent_id: mine })).status).toBe(201);
    expect((await admin('POST', '/v1/agents', { agent_id: other })).status).toBe(201);
    for (const objective of ['one', 'two', 'three', 'four']) expect((await createItem(objective)).status).toBe(201);
  });
  afterAll(() => app?.close());

  // In role `all` the scheduler worker appends its own events to the stream: specs check
  // contiguity and what they wrote, never an exact count.
  const revisions = (items: Array<{ revision: string }>) => items.map((item) => item.revision);
  const contiguous = (from: number, count: number) => Array.from({ length: count }, (_, i) => String(from + i));
  const headRevision = async () => Number((await scoped('GET', events('?limit=1000'))).body.next_after);

  describe('paging', () => {
    it('answers the stream ascending by revision, as stored, with decimal strings', async () => {
      const reply = await scoped('GET', events('?limit=1000'));
      expect(reply.status).toBe(200);
      const items = reply.body.items;
      expect(revisions(items)).toEqual(contiguous(0, items.length));
      expect(reply.body.next_after).toBe(items[items.length - 1].revision);
      const created = items.filter((item: { type: string }) => item.type === 'WorkItemCreated');
      expect(created.map((item: { data: { objective: string } }) => item.data.objective)).toEqual([
        'one',
        'two',
        'three',
        'four',
      ]);
      expect(items[0]).toMatchObject({
        type: 'AgentRegistered',
        data: { agent_id: mine },
        metadata: { schema_version: 1, actor: expect.any(String) },
      });
      expect(created[0]).toMatchObject({
        data: { plan_status: 'draft' },
        position: expect.stringMatching(/^\d+$/),
        event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(BigInt(created[0].position)).toBeGreaterThan(BigInt(items[0].position));
      expect(created[0].recorded_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    });

    it('pages with an exclusive after and next_after as the cursor; an empty page keeps the cursor', async () => {
      const head = await headRevision();
      const seen: string[] = [];
      for (let after: string | undefined; seen.length <= head;) {
        const reply = await scoped('GET', events(`?limit=2${after === undefined ? '' : `&after=${after}`}`));
        expect(reply.body.items.length).toBeGreaterThan(0);
        seen.push(...revisions(reply.body.items));
        after = reply.body.next_after;
      }
      expect(seen.slice(0, head + 1)).toEqual(contiguous(0, head + 1));
      expect((await scoped('GET', events('?after=999999'))).body).toEqual({ items: [], next_after: '999999' });
    });

    it('clamps limit to 1..1000 and refuses what is not a number', async () => {
      expect((await scoped('GET', events('?limit=0'))).body.items).toHaveLength(1);
      expect((await scoped('GET', events('?limit=3'))).body.items).toHaveLength(3);
      expect((await scoped('GET', events('?limit=5000'))).body.items.length).toBeGreaterThanOrEqual(5);
      for (const query of ['?limit=ten', '?after=-1', '?after=0x1', '?after=1.5']) {
        const reply = await scoped('GET', events(query));
        expect({ query, status: reply.status, code: reply.body.error.code }).toEqual({
          query,
          status: 400,
          code: 'validation_failed',
        });
      }
    });

    it('is 404 for an unknown agent, 403 for a token without the agent, 401 without a token', async () => {
      expect((await admin('GET', `/v1/agents/${freshId('nobody')}/events`)).body.error.code).toBe('not_found');
      expect((await scoped('GET', `/v1/agents/${other}/events`)).status).toBe(403);
      expect((await scoped('GET', `/v1/agents/${other}/events/stream`)).status).toBe(403);
      expect((await httpClient(app)('GET', events())).status).toBe(401);
      expect((await admin('GET', `/v1/agents/${other}/events`)).body.items[0]).toMatchObject({
        type: 'AgentRegistered',
        data: { agent_id: other },
      });
    });
  });

  describe('server-sent events', () => {
    let open: SseConnection[] = [];
    afterEach(() => {
      open.forEach((connection) => connection.close());
      open = [];
    });
    const connect = async (query?: string, headers?: Record<string, string>) => {
      const connection = await streamOf(query, headers);
      open.push(connection);
      return connection;
    };
    /** Frames up to the first that `done` accepts; their ids must run on from `from` without a gap or a repeat. */
    const readUntil = async (connection: SseConnection, from: number, done: (frame: SseFrame) => boolean) => {
      const frames: SseFrame[] = [];
      for (let frame = await connection.next(); ; frame = await connection.next()) {
        frames.push(frame);
        if (done(frame)) break;
      }
      expect(frames.map((frame) => frame.id)).toEqual(contiguous(from, frames.length));
      return frames;
    };
    const objective = (text: string) => (frame: SseFrame) =>
      frame.event === 'WorkItemCreated' && JSON.parse(frame.data).data.objective === text;

    it('sends the backlog, then an event appended after connecting, each with id = revision and event = type', async () => {
      const head = await headRevision();
      const connection = await connect();
      expect(connection.status).toBe(200);
      expect(connection.headers.get('content-type')).toContain('text/event-stream');
      const backlog = await readUntil(connection, 0, (frame) => frame.id === String(head));
      expect(backlog[0].event).toBe('AgentRegistered');
      expect((await createItem('live')).status).toBe(201);
      const live = (await readUntil(connection, head + 1, objective('live'))).pop()!;
      expect(JSON.parse(live.data)).toMatchObject({
        revision: live.id,
        type: 'WorkItemCreated',
        data: { objective: 'live' },
      });
    });

    it('resumes after Last-Event-ID (over after) without repeating an event', async () => {
      const head = await headRevision();
      const connection = await connect('?after=0', { 'last-event-id': String(head - 1) });
      expect((await connection.next()).id).toBe(String(head));
      expect((await createItem('after resume')).status).toBe(201);
      await readUntil(connection, head + 1, objective('after resume'));
    });

    it('follows from `after` when no Last-Event-ID is given, only this agent, while other agents write', async () => {
      const head = await headRevision();
      const connection = await connect(`?after=${head}`);
      expect((await admin('POST', `/v1/agents/${other}/work-items`, { objective: 'elsewhere' })).status).toBe(201);
      expect((await createItem('mine again')).status).toBe(201);
      const frames = await readUntil(connection, head + 1, objective('mine again'));
      expect(frames.map((frame) => JSON.parse(frame.data).data.agent_id ?? mine)).toEqual(frames.map(() => mine));
    });

    it('stops following (subscription and all) when the client goes away', async () => {
      const streams = app.runtime.app.get(EventStreams);
      const connection = await connect();
      await connection.next();
      expect(streams.openCount).toBe(1);
      connection.close();
      await eventually(
        'the stream to close after the client left (open streams)',
        () => streams.openCount,
        (open) => open === 0,
        { timeoutMs: 2000, intervalMs: 10 },
      );
      expect(streams.openCount).toBe(0);
    });

    it('answers 404 before streaming for an unknown agent', async () => {
      const reply = await admin('GET', `/v1/agents/${freshId('nobody')}/events/stream`);
      expect(reply.status).toBe(404);
    });
  });

  describe('projection admin', () => {
    it('reports checkpoint, head and lag per projection to admins only', async () => {
      const reply = await admin('GET', '/v1/admin/projections');
      expect(reply.status).toBe(200);
      expect(reply.body.items).toEqual([
        expect.objectContaining({
          name: 'read_models',
          checkpoint: expect.stringMatching(/^-?\d+$/),
          head: expect.stringMatching(/^\d+$/),
          lag: expect.stringMatching(/^\d+$/),
        }),
      ]);
      expect((await scoped('GET', '/v1/admin/projections')).status).toBe(403);
      expect((await scoped('POST', '/v1/admin/projections/rebuild')).status).toBe(403);
    });

    it('rebuilds the read models from position 0 and says how many events at what rate', async () => {
      await projected(app);
      const before = (await admin('GET', `/v1/agents/${mine}/work-items?limit=100`)).body;
      const head = (await admin('GET', '/v1/admin/projections')).body.items[0].head;
      const reply = await admin('POST', '/v1/admin/projections/rebuild');
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        projection: 'read_models',
        events: expect.any(Number),
        duration_ms: expect.any(Number),
        events_per_s: expect.any(Number),
      });
      expect(reply.body.events).toBeGreaterThanOrEqual(10);
      expect((await admin('GET', `/v1/agents/${mine}/work-items?limit=100`)).body).toEqual(before);
      expect(BigInt((await admin('GET', '/v1/admin/projections')).body.items[0].checkpoint)).toBeGreaterThanOrEqual(
        BigInt(head),
      );
    });
  });
});

describe('an open event stream when the app shuts down', () => {
  it('is ended by the server, and the app closes without waiting for the client', async () => {
    const agent = freshId('agent');
    const app = await startTestApp({ tokens: `tok=${agent}` });
    expect((await httpClient(app, 'tok')('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const connection = await openSse(`${app.baseUrl}/v1/agents/${agent}/events/stream`, {
      authorization: 'Bearer tok',
    });
    expect((await connection.next()).event).toBe('AgentRegistered');
    await app.close();
    await connection.ended;
    await expect(connection.next(100)).rejects.toThrow(/ended/);
  });
});
