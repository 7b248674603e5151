/**
 * What a token may do besides which agents it may touch (docs/reliability-security.md, "Tokens:
 * roles, names, rotation and the failed-login throttle"). `admin` is the `*` grant: every agent,
 * every operation, the admin routes.
 */
export const TOKEN_ROLES = ['host', 'operator', 'integration', 'admin'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/** The roles an agent-scoped grant may have. */
export const AGENT_ROLES = ['host', 'operator', 'integration'] as const satisfies readonly TokenRole[];
export type AgentRole = (typeof AGENT_ROLES)[number];

/** Reads: every role of the agent may read what it may act on. */
export const READ_ROLES: readonly AgentRole[] = AGENT_ROLES;

export const isTokenRole = (value: unknown): value is TokenRole =>
  typeof value === 'string' && (TOKEN_ROLES as readonly string[]).includes(value);

/** `ci:host`: the actor recorded for a named grant (its name and role); an old-form grant's actor is its name. */
export const actorOf = (name: string, role: TokenRole | undefined): string => (role ? `${name}:${role}` : name);
