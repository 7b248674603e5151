import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiAuthGuard, parseApiTokens, TokenAuthenticator, TokenRequestAuthorizer } from '@app/application';
import { httpRateLimitKey } from './rate-limit-hook';

/**
 * The bearer token is authenticated once per HTTP request: the rate-limit hook (onRequest) keeps
 * the header's caller on the request, and the guard takes it from there, for that very header only.
 */
describe('one authentication per request (rate-limit hook -> guard)', () => {
  const setup = () => {
    const authenticator = new TokenAuthenticator(parseApiTokens('tok-a=agent-a;tok-admin=*'));
    const authenticate = jest.spyOn(authenticator, 'authenticate');
    const authorizer = new TokenRequestAuthorizer(authenticator);
    const guard = new ApiAuthGuard(new Reflector(), authorizer);
    const handler = () => undefined;
    class Controller {}
    const request = (authorization: string | undefined, agentId = 'agent-a') =>
      ({
        url: `/v1/agents/${agentId}/work-items/w-1`,
        ip: '127.0.0.1',
        headers: authorization === undefined ? {} : { authorization },
        params: { agent_id: agentId },
      }) as unknown as FastifyRequest;
    const contextOf = (req: FastifyRequest) =>
      ({
        getType: () => 'http',
        getHandler: () => handler,
        getClass: () => Controller,
        switchToHttp: () => ({ getRequest: () => req }),
      }) as unknown as ExecutionContext;
    // A refusal comes back as a rejected promise (the guard may ask the store about a private child).
    const guardOutcome = async (req: FastifyRequest) => {
      try {
        return await guard.canActivate(contextOf(req));
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    return { authenticate, authorizer, request, guardOutcome };
  };

  it('hashes the token once: the guard takes the caller the hook found', async () => {
    const { authenticate, authorizer, request, guardOutcome } = setup();
    const req = request('Bearer tok-a');
    expect(httpRateLimitKey(req, authorizer)).toBe('token:token-1');
    expect(req.authenticated).toEqual({ authorization: 'Bearer tok-a', caller: expect.objectContaining({}) });
    expect(await guardOutcome(req)).toBe(true);
    expect(req.caller).toMatchObject({ tokenName: 'token-1', agents: ['agent-a'] });
    expect(authenticate).toHaveBeenCalledTimes(1);
  });

  it('answers as before for a refused token, still hashing it once', async () => {
    const { authenticate, authorizer, request, guardOutcome } = setup();
    const unknown = request('Bearer nope');
    expect(httpRateLimitKey(unknown, authorizer)).toBeNull();
    expect(await guardOutcome(unknown)).toBe('unauthorized');
    const other = request('Bearer tok-a', 'agent-b');
    httpRateLimitKey(other, authorizer);
    expect(await guardOutcome(other)).toBe('forbidden');
    expect(authenticate).toHaveBeenCalledTimes(2);
  });

  it('uses the kept caller only for the header it was found for', async () => {
    const { authenticate, authorizer, request, guardOutcome } = setup();
    const req = request('Bearer tok-a');
    httpRateLimitKey(req, authorizer);
    // The header changed after the hook (nothing does this; the guard must not trust a stale caller).
    req.headers.authorization = 'Bearer nope';
    expect(await guardOutcome(req)).toBe('unauthorized');
    expect(authenticate).toHaveBeenLastCalledWith('nope');
  });

  it('authenticates in the guard when no hook ran (an unlimited path, another edge)', async () => {
    const { authenticate, request, guardOutcome } = setup();
    const req = request('Bearer tok-admin');
    expect(await guardOutcome(req)).toBe(true);
    expect(req.caller).toMatchObject({ admin: true });
    expect(authenticate).toHaveBeenCalledTimes(1);
  });

  it('never hands a caller over from a missing or malformed header', async () => {
    const { authenticate, authorizer, request, guardOutcome } = setup();
    for (const header of [undefined, 'Token tok-a']) {
      const req = request(header);
      httpRateLimitKey(req, authorizer);
      expect(req.authenticated?.caller).toBeNull();
      expect(await guardOutcome(req)).toBe('unauthorized');
    }
    expect(authenticate).not.toHaveBeenCalled();
  });
});
