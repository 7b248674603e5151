import type { AccessRequirement, Caller } from './request-authorizer';

export type AccessDecision = 'allow' | 'unauthorized' | 'forbidden';

/** May this caller act on this agent? Admin (`*`) may act on every agent. */
export function canActOn(caller: Caller, agentId: string): boolean {
  return caller.admin || caller.agents.includes(agentId);
}

/** The whole rule set, pure: no token -> 401; a token without access -> 403. */
export function decideAccess(caller: Caller | null, requirement: AccessRequirement): AccessDecision {
  if (requirement.kind === 'public') return 'allow';
  if (caller === null) return 'unauthorized';
  if (requirement.kind === 'admin') return caller.admin ? 'allow' : 'forbidden';
  if (requirement.agentId === undefined) return 'allow';
  return canActOn(caller, requirement.agentId) ? 'allow' : 'forbidden';
}
