import {
  ApiTokensError,
  checkGrants,
  grantOf,
  GRANT_NAME_PATTERN,
  parseAgents,
  type ApiTokenGrant,
} from './api-tokens';
import { isTokenRole, TOKEN_ROLES } from './roles';

export const API_TOKENS_FILE_ENV = 'RUNTIME_API_TOKENS_FILE';

/**
 * The `RUNTIME_API_TOKENS_FILE` form (JSON), reloaded without a restart:
 * `{"grants": [{"name": "ci", "role": "host", "agents": ["agent-a"], "tokens": ["...", "..."]},
 *              {"name": "root", "role": "admin", "tokens": ["..."]}]}`.
 * Two tokens in one grant are a rotation: both work and record the same actor (`ci:host`).
 * Errors name the grant by position and name, never a token.
 */
export function parseApiTokensFile(text: string): ApiTokenGrant[] {
  const fail = (message: string) => new ApiTokensError(message, API_TOKENS_FILE_ENV);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw fail('is not valid JSON (expected {"grants": [{"name", "role", "agents", "tokens"}]})');
  }
  if (!isObject(document) || !Array.isArray(document.grants) || Object.keys(document).some((k) => k !== 'grants'))
    throw fail('must be an object with one key, "grants", holding an array');
  if (document.grants.length === 0) throw fail('lists no grant');
  const grants: ApiTokenGrant[] = [];
  const where: string[] = [];
  document.grants.forEach((raw: unknown, index: number) => {
    const at = `grants[${index}]`;
    if (!isObject(raw)) throw fail(`${at} is not an object`);
    const unknown = Object.keys(raw).filter((key) => !['name', 'role', 'agents', 'tokens'].includes(key));
    if (unknown.length > 0) throw fail(`${at} has unknown keys: ${unknown.join(', ')}`);
    const { name, role, agents, tokens } = raw;
    if (typeof name !== 'string' || !GRANT_NAME_PATTERN.test(name))
      throw fail(`${at} needs a "name" matching ${GRANT_NAME_PATTERN.source}`);
    const named = `${at} (${name})`;
    if (!isTokenRole(role)) throw fail(`${named} needs a "role": one of ${TOKEN_ROLES.join(', ')}`);
    if (!Array.isArray(tokens) || tokens.length === 0)
      throw fail(`${named} needs "tokens": an array of one or more tokens`);
    let scope: '*' | string[];
    if (role === 'admin') {
      if (agents !== undefined && !(Array.isArray(agents) && agents.length === 1 && agents[0] === '*'))
        throw fail(`${named} has role admin: leave "agents" out (an admin acts on every agent)`);
      scope = '*';
    } else {
      if (!Array.isArray(agents) || agents.length === 0 || agents.some((agent) => typeof agent !== 'string'))
        throw fail(`${named} needs "agents": an array of agent ids`);
      scope = parseAgents((agents as string[]).join('|'), named, API_TOKENS_FILE_ENV);
    }
    tokens.forEach((token: unknown, position: number) => {
      if (typeof token !== 'string' || !/^[^\s]+$/.test(token))
        throw fail(`${named} tokens[${position}] is not a non-empty string without whitespace`);
      grants.push(grantOf({ token, name, role, scope }, (message) => fail(`${named} ${message}`)));
      where.push(`${named} tokens[${position}]`);
    });
  });
  const names = new Map<string, number>();
  document.grants.forEach((raw: Record<string, unknown>, index: number) => {
    const earlier = names.get(raw.name as string);
    if (earlier !== undefined)
      throw fail(
        `grants[${index}] repeats the name '${String(raw.name)}' of grants[${earlier}]: list its tokens together`,
      );
    names.set(raw.name as string, index);
  });
  checkGrants(grants, (index) => where[index]!, fail);
  return grants;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
