import { RuntimeApiError, RuntimeClient, RuntimeNetworkError, type CallContext, type Operation } from '.';
import { httpShape, messageBody } from './grpc/messages';
import { refusalOf as grpcRefusalOf } from './grpc/grpc-transport';
import { backoffDelay, DEFAULT_RETRY_POLICY } from './retry';
import { errorFromEnvelope, parseRetryAfter } from './errors';

/** A transport that records every attempt and answers from a script. */
function fakeTransport(answer: (operation: Operation, context: CallContext, attempt: number) => unknown) {
  const calls: Array<{ operation: Operation; context: CallContext }> = [];
  return {
    calls,
    send: async (operation: Operation, context: CallContext) => {
      calls.push({ operation, context });
      return answer(operation, context, calls.length);
    },
    close: () => undefined,
  };
}

const noWait = { baseDelayMs: 1, maxDelayMs: 2 };
const refusal = (code: RuntimeApiError['code'], status: number, retryAfterMs?: number) =>
  new RuntimeApiError({ code, status, message: code, retryAfterMs });

describe('the client core, on a fake transport', () => {
  it('given no key, sends a generated Idempotency-Key and keeps it across retries', async () => {
    const transport = fakeTransport((_op, _ctx, attempt) => {
      if (attempt === 1) throw new RuntimeNetworkError('connection reset');
      if (attempt === 2) throw refusal('contention', 503);
      return { revision: '3', warnings: [] };
    });
    const client = new RuntimeClient({ url: 'http://fake', retry: noWait }, transport);
    await expect(client.createWorkItem('a-1', { objective: 'x' })).resolves.toEqual({ revision: '3', warnings: [] });
    const keys = transport.calls.map((call) => call.context.idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    // A second command gets a key of its own.
    await client.pickWorkItem('a-1', 'w-1');
    expect(transport.calls[3].context.idempotencyKey).not.toBe(keys[0]);
  });

  it("given the caller's key, sends it", async () => {
    const transport = fakeTransport(() => ({}));
    const client = new RuntimeClient({ url: 'http://fake' }, transport);
    await client.control('a-1', { action: 'stop' }, { idempotencyKey: 'mine-1', correlationId: 'c-1' });
    expect(transport.calls[0].context).toMatchObject({ idempotencyKey: 'mine-1', correlationId: 'c-1' });
  });

  it.each([
    ['validation_failed', 400],
    ['not_found', 404],
    ['conflict', 409],
    ['invariant_violated', 422],
    ['internal', 500],
  ] as const)('never retries %s (%i)', async (code, status) => {
    const transport = fakeTransport(() => {
      throw refusal(code, status);
    });
    const client = new RuntimeClient({ url: 'http://fake', retry: noWait }, transport);
    await expect(client.getAgent('a-1')).rejects.toMatchObject({ code, status });
    expect(transport.calls).toHaveLength(1);
  });

  it('retries 429 and the retryable 503s, and gives up after maxAttempts with the last error', async () => {
    const errors = [refusal('rate_limited', 429), refusal('unavailable', 503), refusal('read_model_lagging', 503)];
    const transport = fakeTransport((_op, _ctx, attempt) => {
      throw errors[Math.min(attempt - 1, 2)];
    });
    const retries: number[] = [];
    const client = new RuntimeClient(
      { url: 'http://fake', retry: { ...noWait, maxAttempts: 4, onRetry: (info) => retries.push(info.attempt) } },
      transport,
    );
    await expect(client.getState('a-1')).rejects.toBe(errors[2]);
    expect(transport.calls).toHaveLength(4);
    expect(retries).toEqual([1, 2, 3]);
  });

  it('stops retrying when the next wait would pass maxElapsedMs', async () => {
    const transport = fakeTransport(() => {
      throw refusal('contention', 503, 60_000);
    });
    const client = new RuntimeClient({ url: 'http://fake', retry: { maxElapsedMs: 1_000 } }, transport);
    await expect(client.activate('a-1')).rejects.toMatchObject({ code: 'contention' });
    expect(transport.calls).toHaveLength(1);
  });

  it('retry: false sends once', async () => {
    const transport = fakeTransport(() => {
      throw new RuntimeNetworkError('down');
    });
    const client = new RuntimeClient({ url: 'http://fake', retry: false }, transport);
    await expect(client.getAgent('a-1')).rejects.toBeInstanceOf(RuntimeNetworkError);
    expect(transport.calls).toHaveLength(1);
  });
});

describe('read-your-writes on the client side', () => {
  const positions = ['17', '9', '42'];
  const transport = () =>
    fakeTransport((operation) => (operation.kind === 'command' ? { position: positions.shift() } : { ok: true }));

  it('given no command yet, a read carries no min_position (what the server of today accepts)', async () => {
    const fake = transport();
    await new RuntimeClient({ url: 'http://fake' }, fake).getWorkItem('a-1', 'w-1');
    expect(fake.calls[0].context.minPosition).toBeUndefined();
  });

  it("passes the highest position the agent's commands got back, for that agent only", async () => {
    positions.splice(0, positions.length, '17', '9', '42');
    const fake = transport();
    const client = new RuntimeClient({ url: 'http://fake' }, fake);
    await client.createWorkItem('a-1', { objective: 'x' });
    await client.updateWorkItem('a-1', 'w-1', { objective: 'y' });
    await client.getWorkItem('a-1', 'w-1');
    await client.listWorkItems('a-2');
    await client.control('a-2', { action: 'stop' });
    await client.getState('a-2');
    const reads = fake.calls.filter((call) => call.operation.kind === 'read');
    expect(reads.map((call) => [call.operation.agentId, call.context.minPosition])).toEqual([
      ['a-1', '17'],
      ['a-2', undefined],
      ['a-2', '42'],
    ]);
  });

  it("the caller's own min_position wins; null sends none; readYourWrites: false turns it off", async () => {
    positions.splice(0, positions.length, '5', '5');
    const fake = transport();
    const client = new RuntimeClient({ url: 'http://fake' }, fake);
    await client.createWorkItem('a-1', { objective: 'x' });
    await client.getAgent('a-1', { minPosition: '99' });
    await client.getAgent('a-1', { minPosition: null });
    const off = new RuntimeClient({ url: 'http://fake', readYourWrites: false }, fake);
    await off.createWorkItem('a-1', { objective: 'x' });
    await off.getAgent('a-1');
    expect(fake.calls.filter((c) => c.operation.kind === 'read').map((c) => c.context.minPosition)).toEqual([
      '99',
      undefined,
      undefined,
    ]);
  });
});

describe('errors, backoff and the gRPC shapes', () => {
  it('reads the envelope, Retry-After and a code this client does not know', () => {
    const error = errorFromEnvelope({ error: { code: 'contention', message: 'busy', details: { a: 1 } } }, 503, 2000);
    expect(error).toMatchObject({
      code: 'contention',
      status: 503,
      message: 'busy',
      details: { a: 1 },
      retryAfterMs: 2000,
    });
    expect(errorFromEnvelope({ error: { code: 'brand_new', message: 'm' } }, 418, undefined)).toMatchObject({
      code: 'internal',
      wireCode: 'brand_new',
    });
    expect(errorFromEnvelope('<html>', 502, undefined)).toBeNull();
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
  });

  it('backs off with full jitter under a doubling ceiling, never under Retry-After', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, undefined, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(3, policy, undefined, () => 0)).toBe(0);
    expect(backoffDelay(1, policy, 1500, () => 0.5)).toBe(1500);
  });

  it('maps a gRPC refusal from its trailers, and a call that never got an answer to a network error', () => {
    const metadata = (entries: Record<string, string>) => ({
      get: (key: string) => (key in entries ? [entries[key]] : []),
    });
    const refused = grpcRefusalOf(
      {
        code: 10,
        details: 'stale',
        message: '10 ABORTED: stale',
        metadata: metadata({ 'error-code': 'conflict', 'error-details': '{"current_revision":"4"}' }),
      } as never,
      'PickWorkItem',
    );
    expect(refused).toMatchObject({
      code: 'conflict',
      status: 409,
      grpcStatus: 10,
      details: { current_revision: '4' },
    });
    const busy = grpcRefusalOf(
      {
        code: 14,
        details: 'busy',
        message: '',
        metadata: metadata({ 'error-code': 'contention', 'retry-after': '2' }),
      } as never,
      'X',
    );
    expect(busy).toMatchObject({ code: 'contention', status: 503, retryAfterMs: 2000 });
    expect(
      grpcRefusalOf(
        { code: 14, details: 'No connection established', message: '', metadata: metadata({}) } as never,
        'X',
      ),
    ).toBeInstanceOf(RuntimeNetworkError);
  });

  it('turns gRPC replies into the HTTP shape: bodies, warning extras, no presence marks', () => {
    expect(messageBody('hi')).toEqual({ text: 'hi' });
    expect(messageBody({ a: 1 })).toEqual({ json: '{"a":1}' });
    expect(
      httpShape({
        message: { id: 'm', body: { content: 'json', json: '{"a":1}' }, _work_item_id: 'work_item_id' },
        warnings: [{ kind: 'unfinished_todos', message: 'm', details_json: '{"pending_count":2}' }],
        previous: null,
      }),
    ).toEqual({
      message: { id: 'm', body: { a: 1 } },
      warnings: [{ kind: 'unfinished_todos', message: 'm', pending_count: 2 }],
    });
  });
});
