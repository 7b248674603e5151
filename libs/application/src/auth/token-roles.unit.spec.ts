import { apiTokenWarnings, parseApiTokens } from './api-tokens';
import { parseApiTokensFile } from './api-tokens-file';
import { TokenAuthenticator } from './bearer-token';
import { TokenRequestAuthorizer } from './token-request-authorizer';
import { OPERATION_ROLES, rolesOf } from './operation-roles';
import { READ_ROLES } from './roles';

const LONG = (label: string) => `${label}-${'x'.repeat(20)}`;

describe('RUNTIME_API_TOKENS, the named form', () => {
  it('reads name:role=token@agents, and name:admin=token@*', () => {
    expect(parseApiTokens(`ci:host=${LONG('h')}@agent-a|agent-b; root:admin=${LONG('r')}@*`)).toEqual([
      { token: LONG('h'), name: 'ci', role: 'host', agents: ['agent-a', 'agent-b'], admin: false },
      { token: LONG('r'), name: 'root', role: 'admin', agents: [], admin: true },
    ]);
  });

  it('keeps the old form beside it: token=agents (every role), token=* (admin)', () => {
    expect(parseApiTokens(`old=agent-a;ops:operator=${LONG('o')}@agent-a;star=*`)).toEqual([
      { token: 'old', name: 'token-1', agents: ['agent-a'], admin: false },
      { token: LONG('o'), name: 'ops', role: 'operator', agents: ['agent-a'], admin: false },
      { token: 'star', name: 'token-3', agents: [], admin: true },
    ]);
  });

  it('takes a repeated name with the same role and agents as a second live token of that grant', () => {
    const grants = parseApiTokens(`ci:host=${LONG('one')}@agent-a;ci:host=${LONG('two')}@agent-a`);
    const authenticator = new TokenAuthenticator(grants);
    expect(authenticator.authenticate(LONG('one'))).toEqual(authenticator.authenticate(LONG('two')));
    expect(authenticator.authenticate(LONG('one'))).toMatchObject({ tokenName: 'ci:host', role: 'host' });
  });

  it.each([
    ['ci:host=s3cret@agent-a;ci:operator=0ther-s3cret@agent-a', /entry 2 reuses grant name 'ci' with another role/],
    ['ci:host=s3cret@agent-a;ci:host=0ther-s3cret@agent-b', /entry 2 reuses grant name 'ci'/],
    ['ci:boss=s3cret@agent-a', /entry 1 \(ci\) has role 'boss': expected one of host, operator, integration, admin/],
    ['ci:host=s3cret@*', /entry 1 \(ci\) has role host with '\*'/],
    ['root:admin=s3cret@agent-a', /entry 1 \(root\) has role admin: its scope must be '\*'/],
    ['s3cret@agent-a', /entry 1 has no '='/],
    ['x=s3cret@agent-a', /entry 1 has an '@' but no 'name:role='/],
    ['bad name:host=s3cret@agent-a', /entry 1 has grant name 'bad name'/],
    ['ci:host=@agent-a', /entry 1 \(ci\) has an empty token/],
    ['ci:host=s3cret@', /entry 1 \(ci\) lists an empty agent id/],
    ['ci:host=s3cret@agent-a;ci:host=s3cret@agent-a', /entry 2 repeats the token/],
  ])('refuses %j, naming the entry and never the token', (spec, message) => {
    let error: Error | undefined;
    try {
      parseApiTokens(spec);
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain('s3cret');
  });

  it('warns about old-form agent grants (every role) and tokens shorter than 16 characters, never showing a token', () => {
    const warnings = apiTokenWarnings(parseApiTokens(`short-s3cret=agent-a;ci:host=${LONG('h')}@agent-a;root=*`));
    expect(warnings).toEqual([
      expect.stringMatching(/^token-1 uses the old form token=agents: it has every role/),
      expect.stringMatching(/^token-1 has a token shorter than 16 characters/),
      expect.stringMatching(/^token-3 has a token shorter than 16 characters/),
    ]);
    expect(warnings.join('\n')).not.toContain('s3cret');
  });
});

describe('RUNTIME_API_TOKENS_FILE (JSON)', () => {
  const file = (grants: unknown) => JSON.stringify({ grants });

  it('reads grants with several tokens each', () => {
    const grants = parseApiTokensFile(
      file([
        { name: 'ci', role: 'host', agents: ['agent-a'], tokens: [LONG('a'), LONG('b')] },
        { name: 'root', role: 'admin', tokens: [LONG('r')] },
      ]),
    );
    expect(grants.map((grant) => [grant.name, grant.role, grant.agents, grant.admin])).toEqual([
      ['ci', 'host', ['agent-a'], false],
      ['ci', 'host', ['agent-a'], false],
      ['root', 'admin', [], true],
    ]);
  });

  it.each([
    ['not json s3cret', /RUNTIME_API_TOKENS_FILE: is not valid JSON/],
    [JSON.stringify({ grants: [], extra: 's3cret' }), /must be an object with one key, "grants"/],
    [file([]), /lists no grant/],
    [
      file([{ name: 'ci', role: 'host', agents: ['agent-a'], tokens: ['s3cret'], secret: 1 }]),
      /grants\[0\] has unknown keys: secret/,
    ],
    [file([{ name: 'ci', role: 'nobody', agents: ['a'], tokens: ['s3cret'] }]), /grants\[0\] \(ci\) needs a "role"/],
    [file([{ name: 'ci', role: 'host', tokens: ['s3cret'] }]), /grants\[0\] \(ci\) needs "agents"/],
    [file([{ name: 'ci', role: 'host', agents: ['a'], tokens: [] }]), /grants\[0\] \(ci\) needs "tokens"/],
    [file([{ name: 'ci', role: 'host', agents: ['a'], tokens: ['s3 cret'] }]), /grants\[0\] \(ci\) tokens\[0\] is not/],
    [file([{ name: 'root', role: 'admin', agents: ['a'], tokens: ['s3cret'] }]), /grants\[0\] \(root\) has role admin/],
    [
      file([
        { name: 'ci', role: 'host', agents: ['a'], tokens: ['s3cret'] },
        { name: 'ci', role: 'host', agents: ['a'], tokens: ['s3cret-2'] },
      ]),
      /grants\[1\] repeats the name 'ci' of grants\[0\]/,
    ],
    [
      file([
        { name: 'ci', role: 'host', agents: ['a'], tokens: ['s3cret'] },
        { name: 'ops', role: 'operator', agents: ['a'], tokens: ['s3cret'] },
      ]),
      /grants\[1\] \(ops\) tokens\[0\] repeats the token/,
    ],
  ])('refuses %j, naming the grant and never the token', (text, message) => {
    let error: Error | undefined;
    try {
      parseApiTokensFile(text);
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.message).toMatch(message);
    expect(error?.message.replace(/unknown keys: secret/, '')).not.toContain('s3cret');
  });
});

describe('roles at the authorizer', () => {
  const grants = parseApiTokens(
    `h:host=${LONG('h')}@agent-a;o:operator=${LONG('o')}@agent-a;i:integration=${LONG('i')}@agent-a;old=agent-a;root:admin=${LONG('r')}@*`,
  );
  const authorizer = new TokenRequestAuthorizer(new TokenAuthenticator(grants));
  const outcome = (token: string, roles: readonly ('host' | 'operator' | 'integration')[], agentId?: string) => {
    try {
      authorizer.authorize(`Bearer ${token}`, { kind: 'agent', agentId, roles });
      return 'allow';
    } catch (error) {
      return error as { code: string; message: string; details: Record<string, unknown> };
    }
  };

  it('lets a role through where the operation accepts it, and an old-form or admin token everywhere', () => {
    expect(outcome(LONG('h'), ['host'], 'agent-a')).toBe('allow');
    expect(outcome(LONG('o'), ['host', 'operator'], 'agent-a')).toBe('allow');
    expect(outcome('old', ['integration'], 'agent-a')).toBe('allow');
    expect(outcome(LONG('r'), ['host'], 'agent-z')).toBe('allow');
  });

  it('refuses another role with 403 forbidden naming its role and the accepted ones', () => {
    expect(outcome(LONG('i'), ['host'], 'agent-a')).toMatchObject({
      code: 'forbidden',
      message: "this token's role (integration) may not call this operation: it accepts host",
      details: { role: 'integration', accepted_roles: ['host'] },
    });
    expect(outcome(LONG('h'), ['operator'])).toMatchObject({ code: 'forbidden', details: { role: 'host' } });
  });

  it("answers another agent's refusal first, the same as before roles existed", () => {
    expect(outcome(LONG('h'), ['operator'], 'agent-b')).toMatchObject({
      code: 'forbidden',
      details: { agent_id: 'agent-b' },
    });
  });
});

describe('OPERATION_ROLES', () => {
  it('gives every write at least one agent role, and every read every role', () => {
    expect(Object.values(OPERATION_ROLES).every((roles) => roles.length > 0)).toBe(true);
    expect(rolesOf('GetWorkItem')).toBe(READ_ROLES);
    expect(rolesOf('Control')).toEqual(['operator']);
  });
});
