import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RuntimeApiError, RuntimeClient, type RetryInfo } from '..';

/** A local server that answers each request from a script: the runtime's 503s and 429s, a dropped connection. */
type Step = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

async function fakeServer(steps: Step[]) {
  const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      const step = steps.shift() ?? { status: 500, body: { error: { code: 'internal', message: 'no more steps' } } };
      if (step === 'drop') return request.socket.destroy();
      response.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      response.end(step.body === undefined ? '' : JSON.stringify(step.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const envelope = (code: string, message = code) => ({ error: { code, message, details: {} } });

describe('retries over HTTP, against a local server', () => {
  let server: Awaited<ReturnType<typeof fakeServer>>;
  afterEach(() => server?.close());

  it('given 503 contention with Retry-After twice, waits as told and repeats the command with the same key', async () => {
    server = await fakeServer([
      { status: 503, headers: { 'retry-after': '1' }, body: envelope('contention') },
      { status: 503, headers: { 'retry-after': '1' }, body: envelope('read_model_lagging') },
      { status: 201, body: { work_item: { id: 'w-1' }, warnings: [], revision: '1' } },
    ]);
    const retries: RetryInfo[] = [];
    const client = new RuntimeClient({ url: server.url, token: 't', retry: { onRetry: (info) => retries.push(info) } });
    const reply = await client.createWorkItem('a-1', { work_item_id: 'w-1', objective: 'Ship it' });
    expect(reply).toEqual({ work_item: { id: 'w-1' }, warnings: [], revision: '1' });
    expect(server.seen).toHaveLength(3);
    const keys = server.seen.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toEqual(expect.any(String));
    expect(new Set(keys).size).toBe(1);
    expect(server.seen.map((request) => JSON.parse(request.body))).toEqual(
      Array(3).fill({ work_item_id: 'w-1', objective: 'Ship it' }),
    );
    expect(server.seen[0].headers.authorization).toBe('Bearer t');
    expect(retries.map((info) => [info.attempt, (info.error as RuntimeApiError).code])).toEqual([
      [1, 'contention'],
      [2, 'read_model_lagging'],
    ]);
    expect(retries.every((info) => info.delayMs >= 1000)).toBe(true);
  });

  it('retries 429 and a dropped connection, then answers', async () => {
    server = await fakeServer([
      { status: 429, headers: { 'retry-after': '0' }, body: envelope('rate_limited') },
      'drop',
      { status: 200, body: { agent_id: 'a-1' } },
    ]);
    const client = new RuntimeClient({ url: server.url, retry: { baseDelayMs: 5 } });
    await expect(client.getAgent('a-1')).resolves.toEqual({ agent_id: 'a-1' });
    expect(server.seen.map((request) => request.url)).toEqual(Array(3).fill('/v1/agents/a-1'));
  });

  it('never retries a 4xx: the refusal comes back typed', async () => {
    server = await fakeServer([
      {
        status: 422,
        body: { error: { code: 'invariant_violated', message: 'done', details: { rule: 'work_item_completed' } } },
      },
    ]);
    const client = new RuntimeClient({ url: server.url });
    const error = await client.pickWorkItem('a-1', 'w-1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RuntimeApiError);
    expect(error).toMatchObject({ code: 'invariant_violated', status: 422, details: { rule: 'work_item_completed' } });
    expect(server.seen).toHaveLength(1);
  });

  it('gives up after maxAttempts on an unavailable server and throws the last refusal', async () => {
    server = await fakeServer(Array(3).fill({ status: 503, body: envelope('unavailable') }));
    const client = new RuntimeClient({ url: server.url, retry: { maxAttempts: 3, baseDelayMs: 5 } });
    await expect(client.getState('a-1')).rejects.toMatchObject({ code: 'unavailable', status: 503 });
    expect(server.seen).toHaveLength(3);
  });
});
