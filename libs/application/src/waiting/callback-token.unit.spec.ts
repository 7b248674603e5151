import { callbackTokenMatches, hashCallbackToken, mintCallbackToken, parseCallbackToken } from './callback-token';

describe('callback tokens', () => {
  it('name their agent and intent and match only their own hash', () => {
    const { token, hash } = mintCallbackToken('agent-1', 'intent:7');
    expect(parseCallbackToken(token)).toEqual({ agentId: 'agent-1', intentId: 'intent:7' });
    expect(callbackTokenMatches(token, hash)).toBe(true);
    const other = mintCallbackToken('agent-1', 'intent:7');
    expect(other.token).not.toBe(token);
    expect(callbackTokenMatches(other.token, hash)).toBe(false);
    expect(callbackTokenMatches(token, null)).toBe(false);
  });

  it('stores a hash that does not contain the token', () => {
    const { token, hash } = mintCallbackToken('a', 'i');
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.split('.')[3]);
    expect(hashCallbackToken(token)).toBe(hash);
  });

  it.each([
    ['empty', ''],
    ['wrong prefix', 'cb2.YQ.aQ.c2VjcmV0'],
    ['too few parts', 'cb1.YQ.aQ'],
    ['bad characters', 'cb1.YQ.aQ.c2Vj/mV0'],
    ['an id that breaks the id pattern', `cb1.${Buffer.from('../x').toString('base64url')}.aQ.c2VjcmV0`],
    ['oversized', `cb1.${'A'.repeat(600)}.aQ.c2VjcmV0`],
  ])('rejects a malformed token (%s)', (_name, token) => {
    expect(parseCallbackToken(token)).toBeNull();
  });
});
