import { ApiError } from '@app/core';
import { parseApiTokens } from './api-tokens';
import { TokenAuthenticator } from './bearer-token';
import { PrivateChildren, type SpawnLookup } from './private-children';
import { TokenRequestAuthorizer } from './token-request-authorizer';

// Issue 17 item 1: a token scoped to a parent covers the private children it spawned, on any
// replica at once: a miss is resolved through the store (here a table standing in for it).

type Spawn = { parent_agent_id: string; workspace_mode: string } | null;
const store: Record<string, Spawn> = {
  'parent-1': null,
  'kid-1': { parent_agent_id: 'parent-1', workspace_mode: 'private_child' },
  'grandkid-1': { parent_agent_id: 'kid-1', workspace_mode: 'private_child' },
  'pub-1': { parent_agent_id: 'parent-1', workspace_mode: 'public_named' },
  'other-1': null,
};

function world() {
  const looked: string[] = [];
  const lookup: SpawnLookup = async (agentId) => {
    looked.push(agentId);
    return agentId in store ? store[agentId] : 'unknown';
  };
  const children = new PrivateChildren();
  const authorizer = new TokenRequestAuthorizer(
    new TokenAuthenticator(parseApiTokens('tok-p=parent-1;tok-o=other-1;tok-admin=*')),
    (agentId) => children.ancestorsOf(agentId),
    (agentId) => children.learn(agentId, lookup),
  );
  const on = (agentId: string, token = 'tok-p') =>
    authorizer.authorizeResolving(`Bearer ${token}`, { kind: 'agent', agentId });
  return { children, looked, on };
}

const forbidden = expect.objectContaining({ code: 'forbidden' });

describe('PrivateChildren.learn and authorizeResolving', () => {
  it('given a child spawned elsewhere (not known here), when the parent token asks for it, then the store is read and it passes', async () => {
    const { children, looked, on } = world();
    await expect(on('kid-1')).resolves.toMatchObject({ agents: ['parent-1'] });
    expect(children.parentOf('kid-1')).toBe('parent-1');
    expect(looked).toEqual(['kid-1', 'parent-1']);
    // Known from now on: no second read.
    await on('kid-1');
    expect(looked).toEqual(['kid-1', 'parent-1']);
  });

  it('given a grandchild, when the grandparent token asks, then the whole chain is learned', async () => {
    const { children, on } = world();
    await expect(on('grandkid-1')).resolves.not.toBeNull();
    expect(children.ancestorsOf('grandkid-1')).toEqual(['kid-1', 'parent-1']);
  });

  it('given a public child, another agent or an unknown id, when the token asks, then 403 and nothing is learned', async () => {
    const { children, on } = world();
    await expect(on('pub-1')).rejects.toEqual(forbidden);
    await expect(on('other-1')).rejects.toEqual(forbidden);
    await expect(on('nobody-1')).rejects.toEqual(forbidden);
    await expect(on('kid-1', 'tok-o')).rejects.toEqual(forbidden);
    expect(children.parentOf('pub-1')).toBeNull();
    expect(children.parentOf('nobody-1')).toBeNull();
  });

  it('given an agent the store showed is no private child, when asked again, then the store is not read again; an unknown id is', async () => {
    const { looked, on } = world();
    await expect(on('other-1')).rejects.toBeInstanceOf(ApiError);
    await expect(on('other-1')).rejects.toBeInstanceOf(ApiError);
    await expect(on('nobody-1')).rejects.toBeInstanceOf(ApiError);
    await expect(on('nobody-1')).rejects.toBeInstanceOf(ApiError);
    expect(looked).toEqual(['other-1', 'nobody-1', 'nobody-1']);
  });

  it('never reads the store for a caller the sync rules already decide: allowed, admin, no token, a bad id', async () => {
    const { looked, on } = world();
    await expect(on('parent-1')).resolves.not.toBeNull();
    await expect(on('kid-1', 'tok-admin')).resolves.not.toBeNull();
    await expect(on('kid-1', 'tok-nope')).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(on('../etc')).rejects.toMatchObject({ code: 'validation_failed' });
    expect(looked).toEqual([]);
  });
});
