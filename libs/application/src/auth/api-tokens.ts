import { ID_PATTERN } from '@app/domain';

/**
 * `RUNTIME_API_TOKENS` grammar: `token=agent-a|agent-b;admintoken=*`.
 * Error messages name the entry by position and never echo a token.
 */
export interface ApiTokenGrant {
  /** The secret itself: compared in constant time, never logged. */
  readonly token: string;
  /** A printable name for logs and event metadata (`token-<n>`, 1-based position). */
  readonly name: string;
  /** Agent ids this token may act on; empty for an admin token. */
  readonly agents: readonly string[];
  /** `*`: may act on every agent and on admin routes. */
  readonly admin: boolean;
}

const TOKEN_PATTERN = /^[^\s=;|]+$/;

export class ApiTokensError extends Error {
  constructor(message: string) {
    super(`RUNTIME_API_TOKENS: ${message}`);
    this.name = 'ApiTokensError';
  }
}

export function parseApiTokens(spec: string): ApiTokenGrant[] {
  const entries = spec
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0)
    throw new ApiTokensError('is set but lists no token (expected `token=agent-a|agent-b;admintoken=*`)');
  const grants = entries.map((entry, index) => parseEntry(entry, index + 1));
  const seen = new Set<string>();
  grants.forEach((grant, index) => {
    if (seen.has(grant.token)) throw new ApiTokensError(`entry ${index + 1} repeats the token of an earlier entry`);
    seen.add(grant.token);
  });
  return grants;
}

function parseEntry(entry: string, position: number): ApiTokenGrant {
  const where = `entry ${position}`;
  const separator = entry.indexOf('=');
  if (separator < 0) throw new ApiTokensError(`${where} has no '=' (expected token=agent-a|agent-b or token=*)`);
  const token = entry.slice(0, separator).trim();
  const scope = entry.slice(separator + 1).trim();
  if (!TOKEN_PATTERN.test(token))
    throw new ApiTokensError(`${where} has an empty token or one containing whitespace, '=', ';' or '|'`);
  const name = `token-${position}`;
  if (scope === '*') return { token, name, agents: [], admin: true };
  const agents = scope.split('|').map((agent) => agent.trim());
  if (agents.length === 0 || agents.some((agent) => agent.length === 0)) {
    throw new ApiTokensError(`${where} lists an empty agent id (expected agent-a|agent-b or *)`);
  }
  if (agents.includes('*')) throw new ApiTokensError(`${where} mixes '*' with agent ids: '*' must stand alone`);
  const invalid = agents.find((agent) => !ID_PATTERN.test(agent));
  if (invalid !== undefined)
    throw new ApiTokensError(`${where} lists agent id '${invalid}', which does not match ${ID_PATTERN.source}`);
  return { token, name, agents: [...new Set(agents)], admin: false };
}
