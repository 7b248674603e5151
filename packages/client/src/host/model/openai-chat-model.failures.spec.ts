import { ModelAbortedError, ModelHttpError, ModelNetworkError, ModelResponseError, ModelTimeoutError } from './errors';
import type { ModelRequest } from './model-adapter';
import { OpenAiChatModel, type OpenAiChatModelOptions } from './openai-chat-model';
import { backoffMs, retryAfterMs, sleep } from './retry';
import { ChatServer } from './testing/chat-server';
import {
  CONTEXT_TOO_LONG,
  INVALID_TOOL_ARGUMENTS,
  PLAIN_ANSWER,
  RATE_LIMITED,
  SERVER_ERROR,
} from './testing/openai-fixtures';

const REQUEST: ModelRequest = {
  context: { text: 'Current: w1' },
  messages: [{ role: 'user', content: 'Go on.' }],
  tools: [{ name: 'pick_work_item', description: 'Pick.', parameters: { type: 'object', properties: {} } }],
};

describe('OpenAiChatModel when the provider fails', () => {
  let server: ChatServer | undefined;
  afterEach(() => server?.close());

  /** An adapter whose waits between attempts are recorded, not slept. */
  function adapter(s: ChatServer, options: OpenAiChatModelOptions = {}) {
    const waits: number[] = [];
    const model = new OpenAiChatModel({
      baseUrl: s.baseUrl,
      apiKey: 'sk-test',
      model: 'gpt-4o-mini',
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...options,
    });
    return { model, waits };
  }

  it('waits as a 429 asks (Retry-After) and retries the same request', async () => {
    server = await ChatServer.start([
      { status: 429, headers: { 'retry-after': '2' }, body: RATE_LIMITED },
      { status: 200, body: PLAIN_ANSWER },
    ]);
    const { model, waits } = adapter(server);

    await expect(model.complete(REQUEST)).resolves.toMatchObject({ text: 'Hello! How can I assist you today?' });
    expect(waits).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body).toEqual(server.requests[0].body);
  });

  it('retries a 500 after a backoff', async () => {
    server = await ChatServer.start([
      { status: 500, body: SERVER_ERROR },
      { status: 200, body: PLAIN_ANSWER },
    ]);
    const { model, waits } = adapter(server, { retryBaseDelayMs: 400 });

    await expect(model.complete(REQUEST)).resolves.toMatchObject({ finish_reason: 'stop' });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(200);
    expect(waits[0]).toBeLessThanOrEqual(400);
  });

  it('gives up after its retries with the last error', async () => {
    server = await ChatServer.start([0, 1, 2].map(() => ({ status: 503, body: SERVER_ERROR })));
    const { model, waits } = adapter(server, { maxRetries: 2 });

    const error = await model.complete(REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect(error).toMatchObject({ status: 503, type: 'server_error', attempts: 3, kind: 'http' });
    expect(waits).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });

  it('does not wait longer than maxRetryDelayMs: a longer Retry-After fails at once', async () => {
    server = await ChatServer.start([{ status: 429, headers: { 'retry-after': '120' }, body: RATE_LIMITED }]);
    const { model, waits } = adapter(server, { maxRetryDelayMs: 10_000 });

    await expect(model.complete(REQUEST)).rejects.toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(waits).toEqual([]);
  });

  it('fails a 400 at once with the provider message, type and code', async () => {
    server = await ChatServer.start([{ status: 400, body: CONTEXT_TOO_LONG }]);
    const { model, waits } = adapter(server);

    const error = await model.complete(REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect(error).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      providerMessage: CONTEXT_TOO_LONG.error.message,
      attempts: 1,
      message: `model provider answered 400 (invalid_request_error/context_length_exceeded): ${CONTEXT_TOO_LONG.error.message}`,
    });
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('reports tool-call arguments that are not JSON as a ModelResponseError naming the call', async () => {
    server = await ChatServer.start([{ status: 200, body: INVALID_TOOL_ARGUMENTS }]);

    const error = await adapter(server)
      .model.complete(REQUEST)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(error).toMatchObject({
      kind: 'invalid_response',
      toolCall: { id: 'call_bad1', name: 'pick_work_item', rawArguments: '{"work_item_id": "w1' },
    });
    expect((error as Error).message).toMatch(
      /^model provider answered tool call call_bad1 \("pick_work_item"\) with arguments that are not valid JSON \(.+\): \{"work_item_id": "w1$/,
    );
  });

  it('stops mid-request when the caller aborts, closing the connection, without retrying', async () => {
    server = await ChatServer.start(['hang', { status: 200, body: PLAIN_ANSWER }]);
    const controller = new AbortController();
    const pending = adapter(server).model.complete({ ...REQUEST, signal: controller.signal });
    await server.received(1);

    controller.abort(new Error('cancel_requested'));

    await expect(pending).rejects.toThrow(new ModelAbortedError(new Error('cancel_requested')));
    await server.requests[0].closed;
    expect(server.requests).toHaveLength(1);
  });

  it('stops waiting between attempts when the caller aborts', async () => {
    server = await ChatServer.start([{ status: 503, body: SERVER_ERROR }]);
    const controller = new AbortController();
    const model = new OpenAiChatModel({
      baseUrl: server.baseUrl,
      model: 'm',
      retryBaseDelayMs: 60_000,
      maxRetryDelayMs: 60_000,
      // The host cancels while the adapter waits out its backoff (a real timer of about a minute).
      sleep: (ms, signal) => {
        controller.abort(new Error('cancel_requested'));
        return sleep(ms, signal);
      },
    });

    await expect(model.complete({ ...REQUEST, signal: controller.signal })).rejects.toThrow(
      new ModelAbortedError(new Error('cancel_requested')),
    );
    expect(server.requests).toHaveLength(1);
  });

  it('times out an attempt that gets no answer', async () => {
    server = await ChatServer.start(['hang']);
    const { model } = adapter(server, { timeoutMs: 50, maxRetries: 0 });

    await expect(model.complete(REQUEST)).rejects.toThrow(new ModelTimeoutError(50));
    await server.requests[0].closed;
  });

  it('reports an unreachable provider as a ModelNetworkError after its retries', async () => {
    server = await ChatServer.start([]);
    const baseUrl = server.baseUrl;
    await server.close();
    server = undefined;
    const waits: number[] = [];
    const model = new OpenAiChatModel({ baseUrl, model: 'm', maxRetries: 1, sleep: async (ms) => void waits.push(ms) });

    const error = await model.complete(REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNetworkError);
    expect((error as Error).message).toContain(`model provider unreachable at ${baseUrl}: `);
    expect(waits).toHaveLength(1);
  });
});

describe('retry timing', () => {
  it('reads retry-after-ms, Retry-After seconds and an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120' }), now)).toBe(120);
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, up to the cap', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 500, 3000, () => 1))).toEqual([500, 1000, 2000, 3000]);
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 500, 3000, () => 0))).toEqual([250, 500, 1000, 1500]);
  });
});
