import type { TokenRole } from './roles';
import type { AccessRequirement, Caller } from './request-authorizer';

export type AccessDecision = 'allow' | 'unauthorized' | 'forbidden';

/** The ancestors of an agent through private spawns (empty: none); see PrivateChildren. */
export type AncestorsOf = (agentId: string) => readonly string[];

/**
 * May this caller act on this agent? Admin (`*`) may act on every agent; a token scoped to an
 * agent also acts on the private children it spawned (and theirs).
 */
export function canActOn(caller: Caller, agentId: string, ancestorsOf?: AncestorsOf): boolean {
  if (caller.admin || caller.agents.includes(agentId)) return true;
  return ancestorsOf !== undefined && ancestorsOf(agentId).some((parent) => caller.agents.includes(parent));
}

/** Does the caller's role fit? Admin always; an old-form grant (no role) has every agent role. */
export function hasRole(caller: Caller, roles: readonly TokenRole[] | undefined): boolean {
  return caller.admin || roles === undefined || caller.role === undefined || roles.includes(caller.role);
}

/** The whole rule set, pure: no token -> 401; a token without access to the agent, or
 * whose role the operation does not accept -> 403. */
export function decideAccess(
  caller: Caller | null,
  requirement: AccessRequirement,
  ancestorsOf?: AncestorsOf,
): AccessDecision {
  if (requirement.kind === 'public') return 'allow';
  if (caller === null) return 'unauthorized';
  if (requirement.kind === 'admin') return caller.admin ? 'allow' : 'forbidden';
  if (requirement.agentId !== undefined && !canActOn(caller, requirement.agentId, ancestorsOf)) return 'forbidden';
  return hasRole(caller, requirement.roles) ? 'allow' : 'forbidden';
}
