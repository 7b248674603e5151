import { Metadata, status as GrpcStatus, type ServerErrorResponse, type ServerUnaryCall } from '@grpc/grpc-js';
import pino from 'pino';
import { ApiError } from '@app/core';
import type { AccessRequirement, RequestAuthorizer } from '@app/application';
import { TokenBucketRateLimiter, type RateLimiter } from '../security/rate-limiter';
import { createUnaryHandler, MALFORMED_REQUEST, peerAddress, requirementFor } from './grpc-call';

describe('requirementFor', () => {
  it.each<[object, unknown, AccessRequirement]>([
    [{}, { agent_id: 'a-1' }, { kind: 'agent', agentId: 'a-1' }],
    [{}, { agent_id: '' }, { kind: 'agent', agentId: undefined }],
    [{ agentIdField: 'owner' }, { owner: 'a-2', agent_id: 'x' }, { kind: 'agent', agentId: 'a-2' }],
    [{ agentIdField: null }, { agent_id: 'a-1' }, { kind: 'agent', agentId: undefined }],
    [{ adminOnly: true }, { agent_id: 'a-1' }, { kind: 'admin' }],
    [{ public: true }, {}, { kind: 'public' }],
  ])('%j on %j -> %j', (options, request, requirement) => {
    expect(requirementFor(options, request)).toEqual(requirement);
  });
});

describe('createUnaryHandler', () => {
  const authorizer: RequestAuthorizer = {
    // Like the real one: a public requirement answers the caller of a valid token, else null.
    authorize: (header, requirement) => {
      const caller = header === 'Bearer ok' ? { tokenName: 'token-1', agents: ['a-1'], admin: false } : null;
      if (requirement.kind === 'public') return caller;
      if (caller === null) throw new ApiError('unauthorized', 'no');
      return caller;
    },
  };
  const call = (request: unknown, token?: string) => {
    const metadata = new Metadata();
    if (token) metadata.set('authorization', token);
    return { request, metadata, getPeer: () => 'ipv4:10.1.2.3:5555' } as unknown as ServerUnaryCall<unknown, unknown>;
  };
  const run = (
    invoke: (request: unknown) => unknown,
    token?: string,
    extra: { limiter?: RateLimiter; request?: unknown; public?: boolean } = {},
  ) =>
    new Promise<{ error: ServerErrorResponse | null; reply: unknown }>((resolve) => {
      const handler = createUnaryHandler(
        { authorizer, logger: pino({ level: 'silent' }), limiter: extra.limiter },
        '/t.S/M',
        { public: extra.public },
        invoke,
      );
      handler(call(extra.request ?? { agent_id: 'a-1' }, token), (error, reply) =>
        resolve({ error: (error as ServerErrorResponse) ?? null, reply }),
      );
    });

  it('calls the handler with the caller and writes bigint as decimal strings', async () => {
    const result = await run(() => ({ revision: 42n }), 'Bearer ok');
    expect(result).toEqual({ error: null, reply: { revision: '42' } });
  });

  it('refuses without a token: UNAUTHENTICATED, handler not called', async () => {
    const invoke = jest.fn();
    const result = await run(invoke);
    expect(result.error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('maps a DomainError-like refusal to its status', async () => {
    const result = await run(
      () =>
        Promise.reject(Object.assign(new Error('completed items cannot be picked'), { code: 'invariant_violated' })),
      'Bearer ok',
    );
    expect(result.error).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      details: 'completed items cannot be picked',
    });
  });

  it('hides unknown failures behind INTERNAL', async () => {
    const result = await run(() => {
      throw new Error('SELECT * FROM secrets failed');
    }, 'Bearer ok');
    expect(result.error).toMatchObject({ code: GrpcStatus.INTERNAL, details: 'internal error' });
  });

  it('answers bytes that did not decode with INVALID_ARGUMENT, handler not called', async () => {
    const invoke = jest.fn();
    const result = await run(invoke, 'Bearer ok', { request: MALFORMED_REQUEST });
    expect(result.error).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    expect(result.error?.metadata?.get('error-details')).toEqual([JSON.stringify({ reason: 'malformed_message' })]);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('refuses strings the store cannot hold with INVALID_ARGUMENT', async () => {
    const result = await run(jest.fn(), 'Bearer ok', { request: { agent_id: 'a-1', objective: 'a\u0000b' } });
    expect(result.error).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
  });

  it("counts a token's calls and answers RESOURCE_EXHAUSTED rate_limited with retry-after past the burst", async () => {
    const limiter = new TokenBucketRateLimiter({ requests: 2, seconds: 20 });
    const invoke = jest.fn(() => ({}));
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await run(invoke, 'Bearer ok', { limiter }));
    expect(results.map((r) => r.error?.code ?? 'ok')).toEqual(['ok', 'ok', GrpcStatus.RESOURCE_EXHAUSTED]);
    expect(results[2]!.error?.metadata?.get('error-code')).toEqual(['rate_limited']);
    expect(results[2]!.error?.metadata?.get('retry-after')).toEqual(['10']);
    expect(invoke).toHaveBeenCalledTimes(2);
  });

  it('answers contention as UNAVAILABLE with its error-code and retry-after, a reused key as FAILED_PRECONDITION', async () => {
    const busy = await run(() => {
      throw new ApiError('contention', 'busy', { agent_id: 'a-1', retry_after_seconds: 1 });
    }, 'Bearer ok');
    expect(busy.error?.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(busy.error?.metadata?.get('error-code')).toEqual(['contention']);
    expect(busy.error?.metadata?.get('retry-after')).toEqual(['1']);
    const reused = await run(() => {
      throw new ApiError('idempotency_key_reused', 'reused', { agent_id: 'a-1' });
    }, 'Bearer ok');
    expect(reused.error?.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(reused.error?.metadata?.get('error-code')).toEqual(['idempotency_key_reused']);
  });

  it('limits a public call without a token by peer address, and does not limit a refused anonymous call', async () => {
    const limiter = new TokenBucketRateLimiter({ requests: 1, seconds: 60 });
    expect((await run(() => ({}), undefined, { limiter, public: true })).error).toBeNull();
    expect((await run(() => ({}), undefined, { limiter, public: true })).error?.code).toBe(
      GrpcStatus.RESOURCE_EXHAUSTED,
    );
    for (let i = 0; i < 3; i++)
      expect((await run(() => ({}), undefined, { limiter })).error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
  });
});

describe('peerAddress', () => {
  it.each([
    ['ipv4:127.0.0.1:5000', '127.0.0.1'],
    ['ipv6:[::1]:5000', '::1'],
    ['127.0.0.1:5000', '127.0.0.1'],
    ['unix:/tmp/s.sock', '/tmp/s.sock'],
    [undefined, null],
    ['', null],
  ])('%j -> %j', (peer, address) => {
    expect(peerAddress(peer)).toBe(address);
  });
});
