import { eventually } from '@app/event-store/testing';
import { RuntimeApiError, RuntimeClient, type StreamFrame } from '@agent-runtime/client';
import { startTestApp, type TestApp } from '../support/app';
import { freshId } from '../support/postgres';
import { waiting } from '../e2e/scheduler/long-poll-support';
import { cuttingGrpcProxy } from './grpc-proxy';

/** The gRPC transport at parity with HTTP: the events page, plan versions, the streams and long-poll activations. */
describe('RuntimeClient over gRPC: audit reads, streams and long polls', () => {
  const agent = freshId('client-grpc-parity');
  const other = freshId('client-grpc-other');
  const poller = freshId('client-grpc-poll');
  const TOKEN = 'tok-client-grpc-parity';
  let app: TestApp;
  let http: RuntimeClient;
  let grpc: RuntimeClient;
  let proxy: Awaited<ReturnType<typeof cuttingGrpcProxy>>;

  beforeAll(async () => {
    app = await startTestApp({ tokens: `${TOKEN}=${agent}|${poller};tok-other=${other}` });
    http = new RuntimeClient({ url: app.baseUrl, token: TOKEN });
    grpc = new RuntimeClient({ url: `grpc://${app.grpcAddress}`, token: TOKEN, transport: 'grpc' });
    await http.registerAgent({ agent_id: agent });
    for (const objective of ['one', 'two', 'three', 'four']) await http.createWorkItem(agent, { objective });
    proxy = await cuttingGrpcProxy(app.grpcAddress!, 3);
  });
  afterAll(async () => {
    grpc?.close();
    await proxy?.close();
    await app?.close();
  });

  it('reads the same events page, plan versions and plan version over both transports', async () => {
    const { work_item } = await grpc.createWorkItem(agent, { work_item_id: 'w-plan', objective: 'plan it' });
    await grpc.replacePlan(agent, work_item.id, '# Plan\n\n- first\n');
    await grpc.replacePlan(agent, work_item.id, '# Plan\n\n- second\n');
    for (const query of [{}, { after: '2', limit: 3 }, { after: '9999' }]) {
      const [overHttp, overGrpc] = await Promise.all([http.readEvents(agent, query), grpc.readEvents(agent, query)]);
      expect(overGrpc.items).toEqual(overHttp.items);
      expect(overGrpc.next_after).toEqual(overHttp.next_after ?? undefined);
    }
    expect((await grpc.readEvents(agent, { limit: 2 })).items[1]).toMatchObject({
      revision: '1',
      data: { objective: 'one' },
    });

    const versions = await grpc.listPlanVersions(agent, work_item.id);
    expect(versions).toEqual(await http.listPlanVersions(agent, work_item.id));
    // Newest first: the second body, the first, the empty plan the item was created with.
    expect(versions.items.map((version) => version.byte_size)).toEqual([17, 16, 0]);
    const first = versions.items[1].hash as string;
    expect(await grpc.getPlan(agent, work_item.id, { version: first })).toBe('# Plan\n\n- first\n');
    const missing = await grpc.getPlan(agent, work_item.id, { version: `sha256:${'0'.repeat(64)}` }).catch((e) => e);
    expect(missing).toBeInstanceOf(RuntimeApiError);
    expect(missing).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('streams the backlog, then live events, and resumes after the server ends the call: no gap, no duplicate', async () => {
    const client = new RuntimeClient({ url: proxy.url, token: TOKEN, transport: 'grpc' });
    const seen: Array<StreamFrame<Record<string, any>>> = [];
    const backlog = (await http.readEvents(agent, { limit: 1000 })).items.length;
    let wroteLive = false;
    for await (const frame of client.agentEvents(agent, { reconnectDelayMs: 20 })) {
      seen.push(frame);
      if (seen.length === backlog && !wroteLive) {
        wroteLive = true;
        await http.createWorkItem(agent, { objective: 'live, written while streaming' });
      }
      if (frame.data.type === 'WorkItemCreated' && frame.data.data.objective.startsWith('live')) break;
    }
    client.close();
    const ids = seen.map((frame) => frame.id);
    expect(ids).toEqual(ids.map((_, index) => String(index)));
    expect(seen).toHaveLength(backlog + 1);
    expect(seen.map((frame) => frame.data.revision)).toEqual(ids);
    expect(seen[0]).toMatchObject({ event: 'AgentRegistered', data: { type: 'AgentRegistered', metadata: {} } });
    expect(seen[1].data.data).toMatchObject({ objective: 'one' });
    // The first call ended after 3 messages (revisions 0..2): the next one resumed after revision 2.
    expect(proxy.calls.slice(0, 2)).toEqual([
      { rpc: 'WatchEvents', after: undefined },
      { rpc: 'WatchEvents', after: '2' },
    ]);
    // break (return()) cancelled the call.
    await eventually('the stream to be cancelled', proxy.cancelled, (n) => n >= 1);
  });

  it('starts after `after`, and an AbortSignal ends the iteration without an error', async () => {
    const abort = new AbortController();
    const ids: string[] = [];
    for await (const frame of grpc.agentEvents(agent, { after: '2', signal: abort.signal })) {
      ids.push(frame.id);
      if (ids.length === 2) abort.abort();
    }
    expect(ids).toEqual(['3', '4']);
  });

  it('follows the changes feed: a write after `after` arrives as its change, and only the token’s agents', async () => {
    const mark = await grpc.createWorkItem(agent, { objective: 'mark' });
    const abort = new AbortController();
    const frames: Array<StreamFrame<Record<string, any>>> = [];
    const following = (async () => {
      for await (const frame of grpc.changes({ after: mark.position, signal: abort.signal })) {
        frames.push(frame);
        if (frame.data.agent_id === agent) abort.abort();
      }
    })();
    const otherClient = new RuntimeClient({ url: app.baseUrl, token: 'tok-other' });
    await otherClient.registerAgent({ agent_id: other });
    const written = await http.createWorkItem(agent, { objective: 'seen by the feed' });
    await following;
    expect(frames).toEqual([
      {
        id: written.position,
        event: 'change',
        data: { agent_id: agent, revision: written.revision, position: written.position, type: 'WorkItemCreated' },
      },
    ]);
  });

  it('refuses a stream of an agent outside the token with a RuntimeApiError', async () => {
    const refusal = await (async () => {
      for await (const frame of grpc.agentEvents(other)) return frame;
    })().catch((error) => error);
    expect(refusal).toBeInstanceOf(RuntimeApiError);
    expect(refusal).toMatchObject({ code: 'forbidden', status: 403 });
  });

  it.each(['http', 'grpc'] as const)(
    'activate with wait_ms over %s answers the turn once a message is enqueued',
    async (transport) => {
      const client = transport === 'http' ? http : grpc;
      if (transport === 'http') await http.registerAgent({ agent_id: poller });
      const pending = client.activate(poller, { wait_ms: 20_000 });
      await waiting(app, 1);
      const { message } = await http.enqueueMessage(poller, { kind: 'operator_prompt', body: `Go (${transport}).` });
      const activation = await pending;
      expect(activation.decision).toMatchObject({ kind: 'StartModelTurn', message_id: message.id });
      if (!activation.turn) throw new Error('the activation opened no turn');
      await client.postTerminal(poller, activation.turn.turn_id, {
        terminal_kind: 'completed',
        last_assistant_message: 'done',
      });
    },
  );
});
