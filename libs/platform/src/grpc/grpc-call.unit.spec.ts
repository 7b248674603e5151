import { Metadata, status as GrpcStatus, type ServerErrorResponse, type ServerUnaryCall } from '@grpc/grpc-js';
import pino from 'pino';
import { ApiError } from '../errors/error-codes';
import type { AccessRequirement, RequestAuthorizer } from '../security/request-authorizer';
import { createUnaryHandler, requirementFor } from './grpc-call';

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
    authorize: (header, requirement) => {
      if (requirement.kind === 'public') return null;
      if (header !== 'Bearer ok') throw new ApiError('unauthorized', 'no');
      return { tokenName: 'token-1', agents: ['a-1'], admin: false };
    },
  };
  const call = (request: unknown, token?: string) => {
    const metadata = new Metadata();
    if (token) metadata.set('authorization', token);
    return { request, metadata } as unknown as ServerUnaryCall<unknown, unknown>;
  };
  const run = (invoke: (request: unknown) => unknown, token?: string) =>
    new Promise<{ error: ServerErrorResponse | null; reply: unknown }>((resolve) => {
      const handler = createUnaryHandler({ authorizer, logger: pino({ level: 'silent' }) }, '/t.S/M', {}, invoke);
      handler(call({ agent_id: 'a-1' }, token), (error, reply) => resolve({ error: (error as ServerErrorResponse) ?? null, reply }));
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
    const result = await run(() => Promise.reject(Object.assign(new Error('completed items cannot be picked'), { code: 'invariant_violated' })), 'Bearer ok');
    expect(result.error).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION, details: 'completed items cannot be picked' });
  });

  it('hides unknown failures behind INTERNAL', async () => {
    const result = await run(() => {
      throw new Error('SELECT * FROM secrets failed');
    }, 'Bearer ok');
    expect(result.error).toMatchObject({ code: GrpcStatus.INTERNAL, details: 'internal error' });
  });
});
