import { ID_PATTERN } from '@app/domain';
import { actorOf, AGENT_ROLES, isTokenRole, TOKEN_ROLES, type TokenRole } from './roles';

/**
 * `RUNTIME_API_TOKENS` grammar, entries separated by `;`:
 * - named: `name:role=token@agent-a|agent-b`, or `name:admin=token@*`. An entry repeating a
 *   name (same role, same agents) adds a second live token to that grant: rotation.
 * - old form, still valid: `token=agent-a|agent-b` (every agent role, warned at start-up) and
 *   `token=*` (admin); named `token-<n>` by position.
 * Error messages name the entry by position (and the grant by name) and never echo a token.
 */
export interface ApiTokenGrant {
  /** The secret itself: compared in constant time, never logged. */
  readonly token: string;
  /** The grant's name, for logs and event metadata (old form: `token-<n>`, 1-based position). */
  readonly name: string;
  /** Agent ids this token may act on; empty for an admin token. */
  readonly agents: readonly string[];
  /** `*`: may act on every agent and on admin routes. */
  readonly admin: boolean;
  /** The named form's role; absent for the old form (every agent role on its agents, or admin for `*`). */
  readonly role?: TokenRole;
}

const TOKEN_PATTERN = /^[^\s=;|]+$/;
/** A grant name: printable, short, no separator of the grammar. */
export const GRANT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Shorter tokens are accepted with a start-up warning. */
export const MIN_TOKEN_LENGTH = 16;

export class ApiTokensError extends Error {
  constructor(message: string, variable = 'RUNTIME_API_TOKENS') {
    super(`${variable}: ${message}`);
    this.name = 'ApiTokensError';
  }
}

export function parseApiTokens(spec: string): ApiTokenGrant[] {
  const entries = spec
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0)
    throw new ApiTokensError(
      'is set but lists no token (expected `name:role=token@agent-a|agent-b`, `token=agent-a|agent-b` or `admintoken=*`)',
    );
  const grants = entries.map((entry, index) => parseEntry(entry, index + 1));
  checkGrants(
    grants,
    (index) => `entry ${index + 1}`,
    (message) => new ApiTokensError(message),
  );
  return grants;
}

/** No token twice; a name repeated only with the same role and agents (a rotation). Shared with the file form. */
export function checkGrants(
  grants: readonly ApiTokenGrant[],
  where: (index: number) => string,
  fail: (message: string) => Error,
): void {
  const tokens = new Set<string>();
  const byName = new Map<string, ApiTokenGrant>();
  grants.forEach((grant, index) => {
    if (tokens.has(grant.token)) throw fail(`${where(index)} repeats the token of an earlier entry`);
    tokens.add(grant.token);
    if (grant.role === undefined) return;
    const earlier = byName.get(grant.name);
    if (earlier === undefined) byName.set(grant.name, grant);
    else if (earlier.role !== grant.role || [...earlier.agents].sort().join('|') !== [...grant.agents].sort().join('|'))
      throw fail(`${where(index)} reuses grant name '${grant.name}' with another role or other agents`);
  });
}

function parseEntry(entry: string, position: number): ApiTokenGrant {
  const where = `entry ${position}`;
  const separator = entry.indexOf('=');
  if (separator < 0) throw new ApiTokensError(`${where} has no '=' (expected token=agent-a|agent-b or token=*)`);
  const left = entry.slice(0, separator).trim();
  const right = entry.slice(separator + 1).trim();
  // Agent ids never hold '@': an '@' on the right is the named form, whatever the left says.
  if (right.includes('@')) return parseNamedEntry(left, right, where);
  if (!TOKEN_PATTERN.test(left))
    throw new ApiTokensError(`${where} has an empty token or one containing whitespace, '=', ';' or '|'`);
  const name = `token-${position}`;
  if (right === '*') return { token: left, name, agents: [], admin: true };
  return { token: left, name, agents: parseAgents(right, where), admin: false };
}

function parseNamedEntry(left: string, right: string, where: string): ApiTokenGrant {
  const colon = left.indexOf(':');
  if (colon < 0)
    throw new ApiTokensError(
      `${where} has an '@' but no 'name:role=' before its token (expected name:role=token@agents)`,
    );
  const name = left.slice(0, colon).trim();
  const role = left.slice(colon + 1).trim();
  if (!GRANT_NAME_PATTERN.test(name))
    throw new ApiTokensError(`${where} has grant name '${name}', which does not match ${GRANT_NAME_PATTERN.source}`);
  if (!isTokenRole(role))
    throw new ApiTokensError(`${where} (${name}) has role '${role}': expected one of ${TOKEN_ROLES.join(', ')}`);
  const at = right.indexOf('@');
  const token = right.slice(0, at).trim();
  const scope = right.slice(at + 1).trim();
  if (!TOKEN_PATTERN.test(token))
    throw new ApiTokensError(
      `${where} (${name}) has an empty token or one containing whitespace, '=', ';', '|' or '@'`,
    );
  return grantOf({ token, name, role, scope: scope === '*' ? '*' : parseAgents(scope, `${where} (${name})`) }, (m) => {
    return new ApiTokensError(`${where} (${name}) ${m}`);
  });
}

/** A named grant: `admin` goes with `*` and nothing else does. */
export function grantOf(
  parts: { token: string; name: string; role: TokenRole; scope: '*' | readonly string[] },
  fail: (message: string) => Error,
): ApiTokenGrant {
  const { token, name, role, scope } = parts;
  if (role === 'admin') {
    if (scope !== '*') throw fail("has role admin: its scope must be '*'");
    return { token, name, agents: [], admin: true, role };
  }
  if (scope === '*')
    throw fail(
      `has role ${role} with '*': only admin may act on every agent (${AGENT_ROLES.join(', ')} name their agents)`,
    );
  return { token, name, agents: scope, admin: false, role };
}

/** `agent-a|agent-b`, each matching ID_PATTERN, no `*` among them. */
export function parseAgents(scope: string, where: string, variable?: string): string[] {
  const agents = scope.split('|').map((agent) => agent.trim());
  if (agents.length === 0 || agents.some((agent) => agent.length === 0)) {
    throw new ApiTokensError(`${where} lists an empty agent id (expected agent-a|agent-b or *)`, variable);
  }
  if (agents.includes('*'))
    throw new ApiTokensError(`${where} mixes '*' with agent ids: '*' must stand alone`, variable);
  const invalid = agents.find((agent) => !ID_PATTERN.test(agent));
  if (invalid !== undefined)
    throw new ApiTokensError(
      `${where} lists agent id '${invalid}', which does not match ${ID_PATTERN.source}`,
      variable,
    );
  return [...new Set(agents)];
}

/** What start-up warns about (never a token): old-form agent grants (every role) and short tokens. */
export function apiTokenWarnings(grants: readonly ApiTokenGrant[]): string[] {
  const warnings: string[] = [];
  for (const grant of grants) {
    const actor = actorOf(grant.name, grant.role);
    if (grant.role === undefined && !grant.admin)
      warnings.push(
        `${actor} uses the old form token=agents: it has every role (${AGENT_ROLES.join(', ')}) on its agents; name a role with name:role=token@agents`,
      );
    if (grant.token.length < MIN_TOKEN_LENGTH)
      warnings.push(`${actor} has a token shorter than ${MIN_TOKEN_LENGTH} characters: use a long random one`);
  }
  return warnings;
}
