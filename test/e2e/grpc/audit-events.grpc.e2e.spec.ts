import { status as GrpcStatus } from '@grpc/grpc-js';
import { createEventStore, type EventStore, type Subscription } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { GrpcServerHost, type EventStoreFactory } from '@app/platform';
import { startTestApp, type TestApp } from '../../support/app';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { openGrpcStream, type GrpcStreamReader } from '../../support/grpc-stream';
import { httpClient } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';

type AgentEvent = {
  event_id: string;
  revision: string;
  position: string;
  type: string;
  data_json: string;
  metadata_json: string;
  recorded_at: string;
};

/** The HTTP item of a gRPC AgentEvent: its JSON texts parsed back. */
const asHttpItem = ({ event_id, revision, position, type, data_json, metadata_json, recorded_at }: AgentEvent) => ({
  event_id,
  revision,
  position,
  type,
  data: JSON.parse(data_json),
  metadata: JSON.parse(metadata_json),
  recorded_at,
});

/** The store's subscriptions that were opened and not stopped yet (the projector's included). */
let liveSubscriptions = 0;
const countingStore: EventStoreFactory = async (options) => {
  const real = await createEventStore(options);
  return Object.assign(Object.create(real) as EventStore, {
    subscribeToAll: (...args: Parameters<EventStore['subscribeToAll']>): Subscription => {
      const inner = real.subscribeToAll(...args);
      let stopped = false;
      liveSubscriptions++;
      return {
        [Symbol.asyncIterator]: () => inner[Symbol.asyncIterator](),
        stop: async () => {
          if (!stopped) liveSubscriptions--;
          stopped = true;
          await inner.stop();
        },
      };
    },
  });
};

describe('an agent stream over gRPC: ReadEvents and WatchEvents', () => {
  const mine = freshId('agent');
  const other = freshId('agent');
  let app: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let scoped: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  let http: ReturnType<typeof httpClient>;
  let open: Array<GrpcStreamReader<AgentEvent>> = [];

  const createItem = async (objective: string) =>
    expect((await scoped('CreateWorkItem', { agent_id: mine, objective })).error).toBeNull();
  const headRevision = async () =>
    Number((await scoped('ReadEvents', { agent_id: mine, limit: 1000 })).reply.next_after);
  const watch = (request: object, token: string | null = 'tok-mine') => {
    const stream = openGrpcStream<AgentEvent>(grpc, 'WatchEvents', request, token ?? undefined);
    open.push(stream);
    return stream;
  };
  /** Messages up to the first that `done` accepts; their revisions must run on from `from`: no gap, no repeat. */
  const readUntil = async (
    stream: GrpcStreamReader<AgentEvent>,
    from: number,
    done: (event: AgentEvent) => boolean,
  ) => {
    const events: AgentEvent[] = [];
    for (let event = await stream.next(); ; event = await stream.next()) {
      events.push(event);
      if (done(event)) break;
    }
    expect(events.map((event) => event.revision)).toEqual(events.map((_, i) => String(from + i)));
    return events;
  };
  const objective = (text: string) => (event: AgentEvent) =>
    event.type === 'WorkItemCreated' && JSON.parse(event.data_json).objective === text;

  beforeAll(async () => {
    app = await startTestApp({
      tokens: `tok-admin=*;tok-mine=${mine}`,
      env: { DATABASE_URL: await isolatedDatabaseUrl('grpc_audit') },
      eventStoreFactory: countingStore,
    });
    grpc = runtimeGrpcClient(app);
    scoped = grpc.as('tok-mine');
    http = httpClient(app, 'tok-mine');
    expect((await scoped('RegisterAgent', { agent_id: mine })).error).toBeNull();
    expect((await grpc.as('tok-admin')('RegisterAgent', { agent_id: other })).error).toBeNull();
    for (const text of ['one', 'two', 'three', 'four']) await createItem(text);
  });
  afterEach(async () => {
    open.forEach((stream) => stream.cancel());
    await Promise.all(open.map((stream) => stream.ended));
    open = [];
    const host = app.runtime.app.get(GrpcServerHost);
    await eventually(
      'the cancelled streams to end',
      () => host.openStreams,
      (count) => count === 0,
    );
  });
  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  describe('ReadEvents', () => {
    it.each<[string, object, string]>([
      ['the whole stream', {}, ''],
      ['a page after a revision', { after: '1', limit: 2 }, '?after=1&limit=2'],
      ['a clamped limit', { limit: 0 }, '?limit=0'],
      ['a page past the end', { after: '999999' }, '?after=999999'],
    ])('answers what GET .../events answers: %s', async (_name, request, query) => {
      const [byGrpc, byHttp] = [
        await scoped('ReadEvents', { agent_id: mine, ...request }),
        await http('GET', `/v1/agents/${mine}/events${query}`),
      ];
      expect(byGrpc.error).toBeNull();
      expect(byHttp.status).toBe(200);
      const { items, next_after } = byGrpc.reply as { items: AgentEvent[]; next_after?: string };
      expect({ items: items.map(asHttpItem), next_after: next_after ?? null }).toEqual(byHttp.body);
    });

    it('refuses a bad cursor (INVALID_ARGUMENT), an unknown agent (NOT_FOUND), another agent (PERMISSION_DENIED)', async () => {
      for (const after of ['-1', '0x1', '1.5']) {
        const refusal = refusalOf(await scoped('ReadEvents', { agent_id: mine, after }));
        expect(refusal).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, errorCode: 'validation_failed' });
        expect(refusal.details).toEqual({ field: 'after' });
      }
      const unknown = refusalOf(await grpc.as('tok-admin')('ReadEvents', { agent_id: freshId('nobody') }));
      expect(unknown).toMatchObject({ code: GrpcStatus.NOT_FOUND, errorCode: 'not_found' });
      const forbidden = refusalOf(await scoped('ReadEvents', { agent_id: other }));
      expect(forbidden).toMatchObject({ code: GrpcStatus.PERMISSION_DENIED, errorCode: 'forbidden' });
      expect(refusalOf(await grpc.as()('ReadEvents', { agent_id: mine })).code).toBe(GrpcStatus.UNAUTHENTICATED);
    });
  });

  describe('WatchEvents', () => {
    it('sends the backlog, then what is appended while it is open, each item as ReadEvents has it', async () => {
      const head = await headRevision();
      const stream = watch({ agent_id: mine });
      const backlog = await readUntil(stream, 0, (event) => event.revision === String(head));
      const paged = await scoped('ReadEvents', { agent_id: mine, limit: 1000 });
      expect(backlog).toEqual(paged.reply.items);
      await createItem('live');
      const [live] = await readUntil(stream, head + 1, objective('live'));
      expect(asHttpItem(live!)).toMatchObject({ type: 'WorkItemCreated', data: { objective: 'live' } });
    });

    it('resumes after the last revision received: no gap and no repeat across a disconnect', async () => {
      const first = watch({ agent_id: mine });
      const head = await headRevision();
      const seen = await readUntil(first, 0, (event) => event.revision === String(head));
      first.cancel();
      await first.ended;
      await createItem('while away 1');
      await createItem('while away 2');
      const resumed = watch({ agent_id: mine, after: seen.at(-1)!.revision });
      const missed = await readUntil(resumed, head + 1, objective('while away 2'));
      expect(
        missed.filter((event) => event.type === 'WorkItemCreated').map((e) => JSON.parse(e.data_json).objective),
      ).toEqual(['while away 1', 'while away 2']);
      await createItem('after resume');
      await readUntil(resumed, Number(missed.at(-1)!.revision) + 1, objective('after resume'));
    });

    it("only carries this agent's events while others write", async () => {
      const head = await headRevision();
      const stream = watch({ agent_id: mine, after: String(head) });
      await stream.ready;
      expect(
        (await grpc.as('tok-admin')('CreateWorkItem', { agent_id: other, objective: 'elsewhere' })).error,
      ).toBeNull();
      await createItem('mine again');
      const events = await readUntil(stream, head + 1, objective('mine again'));
      expect(events).toHaveLength(1);
    });

    it('ends its store subscription when the client cancels (no leak)', async () => {
      const host = app.runtime.app.get(GrpcServerHost);
      const before = liveSubscriptions;
      const head = await headRevision();
      const stream = watch({ agent_id: mine, after: String(head) });
      await stream.ready;
      await createItem('proves the live part');
      await readUntil(stream, head + 1, objective('proves the live part'));
      expect({ streams: host.openStreams, subscriptions: liveSubscriptions }).toEqual({
        streams: 1,
        subscriptions: before + 1,
      });
      stream.cancel();
      expect((await stream.ended)?.code).toBe(GrpcStatus.CANCELLED);
      const after = await eventually(
        'the stream and its subscription to end after the client cancelled',
        () => ({ streams: host.openStreams, subscriptions: liveSubscriptions }),
        (now) => now.streams === 0 && now.subscriptions === before,
        { timeoutMs: 3000, intervalMs: 10 },
      );
      expect(after).toEqual({ streams: 0, subscriptions: before });
    });

    it('refuses before any message: a bad cursor, an unknown agent, another agent, no token', async () => {
      const cases: Array<[object, string | null, number, string]> = [
        [{ agent_id: mine, after: '-1' }, 'tok-mine', GrpcStatus.INVALID_ARGUMENT, 'validation_failed'],
        [{ agent_id: 'bad/id' }, 'tok-admin', GrpcStatus.INVALID_ARGUMENT, 'validation_failed'],
        [{ agent_id: freshId('nobody') }, 'tok-admin', GrpcStatus.NOT_FOUND, 'not_found'],
        [{ agent_id: other }, 'tok-mine', GrpcStatus.PERMISSION_DENIED, 'forbidden'],
        [{ agent_id: mine }, null, GrpcStatus.UNAUTHENTICATED, 'unauthorized'],
      ];
      for (const [request, token, code, errorCode] of cases) {
        const stream = watch(request, token);
        const error = await stream.ended;
        expect({ request, code: error?.code, errorCode: error?.metadata.get('error-code')[0] }).toEqual({
          request,
          code,
          errorCode,
        });
        expect(stream.buffered).toBe(0);
      }
      expect(app.runtime.app.get(GrpcServerHost).openStreams).toBe(0);
    });
  });
});
