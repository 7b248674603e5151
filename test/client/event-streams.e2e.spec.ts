import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '@app/event-store/testing';
import { RuntimeClient, type StreamFrame } from '@agent-runtime/client';
import { EventStreams } from '../../apps/runtime/src/audit/event-stream';
import { startTestApp, type TestApp } from '../support/app';
import { freshId } from '../support/postgres';

/**
 * A proxy in front of the runtime that, on its first stream, forwards `cutAfter` whole frames
 * and half of the next one, then closes the connection: the server side of a dropped stream.
 */
async function cuttingProxy(target: string, cutAfter: number) {
  const requests: Array<{ url?: string; lastEventId?: string }> = [];
  let closedStreams = 0;
  const server: Server = createServer(async (request, response) => {
    const connection = requests.push({ url: request.url, lastEventId: request.headers['last-event-id'] as string });
    const upstream = new AbortController();
    response.on('close', () => {
      closedStreams += 1;
      upstream.abort();
    });
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'accept', 'last-event-id']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    try {
      const reply = await fetch(target + request.url, { headers, signal: upstream.signal });
      response.writeHead(reply.status, Object.fromEntries(reply.headers));
      let buffered = '';
      let forwarded = 0;
      for await (const chunk of reply.body!) {
        buffered += Buffer.from(chunk).toString('utf8');
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const frame = buffered.slice(0, end + 2);
          buffered = buffered.slice(end + 2);
          if (connection === 1 && frame.startsWith('id:') && forwarded === cutAfter) {
            // The frames before reach the client; then the connection ends mid-frame (FIN, no chunk terminator).
            response.write(frame.slice(0, Math.floor(frame.length / 2)), () => response.socket?.end());
            return;
          }
          response.write(frame);
          if (frame.startsWith('id:')) forwarded += 1;
        }
      }
      response.end();
    } catch {
      response.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    closedStreams: () => closedStreams,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the client streams (server-sent events) with resume', () => {
  const agent = freshId('client-sse');
  const TOKEN = 'tok-client-sse';
  let app: TestApp;
  let direct: RuntimeClient;
  let proxy: Awaited<ReturnType<typeof cuttingProxy>>;

  beforeAll(async () => {
    app = await startTestApp({ tokens: `${TOKEN}=${agent}` });
    direct = new RuntimeClient({ url: app.baseUrl, token: TOKEN });
    await direct.registerAgent({ agent_id: agent });
    for (const objective of ['one', 'two', 'three', 'four', 'five']) await direct.createWorkItem(agent, { objective });
    proxy = await cuttingProxy(app.baseUrl, 3);
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.close();
  });

  it('given the server drops the stream mid-frame, resumes with Last-Event-ID: no gap, no duplicate, live frames after', async () => {
    const client = new RuntimeClient({ url: proxy.url, token: TOKEN });
    const seen: Array<StreamFrame<Record<string, any>>> = [];
    let wroteLive = false;
    for await (const frame of client.agentEvents(agent, { reconnectDelayMs: 20 })) {
      seen.push(frame);
      if (frame.data.type === 'WorkItemCreated' && frame.data.data.objective === 'five' && !wroteLive) {
        wroteLive = true;
        await direct.createWorkItem(agent, { objective: 'six, written while streaming' });
      }
      if (frame.data.type === 'WorkItemCreated' && frame.data.data.objective.startsWith('six')) break;
    }
    const ids = seen.map((frame) => frame.id);
    expect(ids).toEqual(ids.map((_, index) => String(index)));
    expect(seen.map((frame) => frame.data.revision)).toEqual(ids);
    expect(seen[0]).toMatchObject({ event: 'AgentRegistered', data: { type: 'AgentRegistered' } });
    expect(proxy.requests.length).toBeGreaterThanOrEqual(2);
    expect(proxy.requests[0].lastEventId).toBeUndefined();
    expect(proxy.requests[1].lastEventId).toBe('2');
    // break (return()) closed the connection: the proxy and the server let the stream go.
    await eventually('the proxied streams to close', proxy.closedStreams, (closed) => closed === proxy.requests.length);
    await eventually(
      'the server to end its streams',
      () => app.runtime.app.get(EventStreams).openCount,
      (open) => open === 0,
    );
  });

  it('starts after `after`, and an AbortSignal ends the iteration without an error', async () => {
    const abort = new AbortController();
    const ids: string[] = [];
    for await (const frame of direct.agentEvents(agent, { after: '3', signal: abort.signal })) {
      ids.push(frame.id);
      if (ids.length === 2) abort.abort();
    }
    expect(ids).toEqual(['4', '5']);
    await eventually(
      'the server to end its streams',
      () => app.runtime.app.get(EventStreams).openCount,
      (open) => open === 0,
    );
  });

  it('follows the changes feed of its agents after a position', async () => {
    const events = await direct.readEvents(agent);
    const start = events.items[0].position as string;
    const frames: string[] = [];
    for await (const frame of direct.changes({ after: start })) {
      expect(frame.data).toMatchObject({ agent_id: agent, position: frame.id });
      frames.push(frame.data.revision);
      if (frames.length === 3) break;
    }
    expect(frames).toEqual(['1', '2', '3']);
  });
});
