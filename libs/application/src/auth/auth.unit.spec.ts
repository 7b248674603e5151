import { parseApiTokens } from './api-tokens';
import type { AccessRequirement, Caller } from './request-authorizer';
import { canActOn, decideAccess } from './access-decision';
import { parseBearer, TokenAuthenticator } from './bearer-token';
import { TokenRequestAuthorizer } from './token-request-authorizer';

const grants = parseApiTokens('tok-a=agent-a|agent-b;tok-c=agent-c;tok-admin=*');
const authenticator = new TokenAuthenticator(grants);
const authorizer = new TokenRequestAuthorizer(authenticator);
const scoped: Caller = { tokenName: 'token-1', agents: ['agent-a', 'agent-b'], admin: false };
const admin: Caller = { tokenName: 'token-3', agents: [], admin: true };

describe('parseBearer', () => {
  it.each([
    ['Bearer tok-a', 'tok-a'],
    ['bearer tok-a', 'tok-a'],
    ['BEARER   tok-a ', 'tok-a'],
  ])('reads %j', (header, token) => {
    expect(parseBearer(header)).toBe(token);
  });

  it.each([undefined, '', 'tok-a', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b'])('refuses %j', (header) => {
    expect(parseBearer(header)).toBeNull();
  });
});

describe('TokenAuthenticator', () => {
  it('finds the caller of a known token', () => {
    expect(authenticator.authenticate('tok-a')).toEqual(scoped);
    expect(authenticator.authenticate('tok-admin')).toEqual(admin);
  });

  it.each(['tok', 'tok-a ', 'TOK-A', 'tok-admin*', ''])('knows nothing of %j', (token) => {
    expect(authenticator.authenticate(token)).toBeNull();
  });

  it('never exposes the secret on the caller', () => {
    expect(JSON.stringify(authenticator.authenticate('tok-a'))).not.toContain('tok-a');
  });
});

describe('decideAccess', () => {
  it.each<[string, Caller | null, AccessRequirement, string]>([
    ['public without a token', null, { kind: 'public' }, 'allow'],
    ['no token on an agent route', null, { kind: 'agent', agentId: 'agent-a' }, 'unauthorized'],
    ['no token on an admin route', null, { kind: 'admin' }, 'unauthorized'],
    ['own agent', scoped, { kind: 'agent', agentId: 'agent-b' }, 'allow'],
    ["another token's agent", scoped, { kind: 'agent', agentId: 'agent-c' }, 'forbidden'],
    ['a route without an agent', scoped, { kind: 'agent' }, 'allow'],
    ['admin route with a scoped token', scoped, { kind: 'admin' }, 'forbidden'],
    ['admin on any agent', admin, { kind: 'agent', agentId: 'agent-z' }, 'allow'],
    ['admin on an admin route', admin, { kind: 'admin' }, 'allow'],
  ])('%s -> %s', (_situation, caller, requirement, decision) => {
    expect(decideAccess(caller, requirement)).toBe(decision);
  });

  it('matches agent ids exactly', () => {
    expect(canActOn(scoped, 'agent-a2')).toBe(false);
    expect(canActOn(scoped, 'AGENT-A')).toBe(false);
  });
});

describe('TokenRequestAuthorizer', () => {
  const refusal = (header: string | undefined, requirement: AccessRequirement) => {
    try {
      authorizer.authorize(header, requirement);
    } catch (error) {
      return error as { code: string; message: string; details?: Record<string, unknown> };
    }
    throw new Error('expected a refusal');
  };

  it('returns the caller when allowed', () => {
    expect(authorizer.authorize('Bearer tok-a', { kind: 'agent', agentId: 'agent-a' })).toEqual(scoped);
  });

  it.each([
    [undefined, 'missing bearer token'],
    ['Token tok-a', 'malformed Authorization header'],
    ['Bearer nope', 'unknown token'],
  ])('answers unauthorized for %j', (header, message) => {
    expect(refusal(header, { kind: 'agent', agentId: 'agent-a' })).toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining(message),
    });
  });

  it('answers forbidden, naming the agent, for a token without access', () => {
    expect(refusal('Bearer tok-c', { kind: 'agent', agentId: 'agent-a' })).toMatchObject({
      code: 'forbidden',
      details: { agent_id: 'agent-a' },
    });
  });

  it('answers forbidden for a scoped token on an admin route', () => {
    expect(refusal('Bearer tok-a', { kind: 'admin' })).toMatchObject({ code: 'forbidden' });
  });

  it('lets a public route through with or without a valid token, exposing a caller when there is one', () => {
    expect(authorizer.authorize(undefined, { kind: 'public' })).toBeNull();
    expect(authorizer.authorize('Bearer junk', { kind: 'public' })).toBeNull();
    expect(authorizer.authorize('Bearer tok-admin', { kind: 'public' })).toEqual(admin);
  });
});

describe('TokenRequestAuthorizer on ids that cannot name an agent', () => {
  const outcome = (header: string | undefined, agentId: string) => {
    try {
      authorizer.authorize(header, { kind: 'agent', agentId });
      return 'allow';
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  it.each(['../etc', 'a/b', '', ' a', 'x'.repeat(129), 'a\u0000b', 'é'])(
    'answers %j with 400 for any valid token, 401 without one',
    (agentId) => {
      expect(outcome(undefined, agentId)).toBe('unauthorized');
      expect(outcome('Bearer tok-c', agentId)).toBe('validation_failed');
      expect(outcome('Bearer tok-admin', agentId)).toBe('validation_failed');
    },
  );

  it('still answers 403 for a well-formed id of another agent', () => {
    expect(outcome('Bearer tok-c', 'x'.repeat(128))).toBe('forbidden');
  });
});
