import { AccessRequirement, AuthenticatedHeader, Caller, RequestAuthorizer } from './request-authorizer';
import { ID_PATTERN } from '@app/domain';
import { ApiError } from '@app/core';
import { type AncestorsOf, canActOn, decideAccess } from './access-decision';
import { parseBearer, TokenAuthenticator } from './bearer-token';

/**
 * The one authorizer both transports use (HTTP guard, gRPC host). Order: a valid token (401),
 * then an agent id that can name an agent at all (400, whatever the token: no token may act on
 * `../etc`, and a client bug deserves the precise answer), then access to it and a role the operation accepts (403).
 */
export class TokenRequestAuthorizer implements RequestAuthorizer {
  constructor(
    private readonly authenticator: TokenAuthenticator,
    /** The private children's ancestors (a token of a parent covers them); absent: none. */
    private readonly ancestorsOf?: AncestorsOf,
    /** Learns an agent's ancestors from the store after a miss (true: learned some); absent: none. */
    private readonly learnAncestors?: (agentId: string) => Promise<boolean>,
  ) {}

  /**
   * `authorize`, but a token refused an agent it does not name is given one more chance: the
   * agent's ancestry is read from the store (a private child spawned on another replica a moment
   * ago, before this one's refresh), then the same rules decide again.
   */
  async authorizeResolving(
    authorization: string | undefined,
    requirement: AccessRequirement,
    known?: AuthenticatedHeader,
  ): Promise<Caller | null> {
    try {
      return this.authorize(authorization, requirement, known);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'forbidden' || this.learnAncestors === undefined) throw error;
      if (requirement.kind !== 'agent' || requirement.agentId === undefined) throw error;
      const token = parseBearer(authorization);
      const caller = token === null ? null : this.authenticated(token, authorization, known);
      if (caller === null || caller.agents.length === 0 || canActOn(caller, requirement.agentId, this.ancestorsOf))
        throw error;
      if (!(await this.learnAncestors(requirement.agentId))) throw error;
      return this.authorize(authorization, requirement, known);
    }
  }

  authorize(
    authorization: string | undefined,
    requirement: AccessRequirement,
    known?: AuthenticatedHeader,
  ): Caller | null {
    const token = parseBearer(authorization);
    const caller = token === null ? null : this.authenticated(token, authorization, known);
    if (requirement.kind === 'public') return caller;
    if (caller === null) {
      const why =
        authorization === undefined
          ? 'missing bearer token'
          : token === null
            ? 'malformed Authorization header: expected `Bearer <token>`'
            : 'unknown token';
      throw new ApiError('unauthorized', why);
    }
    if (requirement.kind === 'agent' && requirement.agentId !== undefined && !ID_PATTERN.test(requirement.agentId)) {
      throw new ApiError('validation_failed', 'agent_id does not match the id pattern', {
        field: 'agent_id',
        pattern: ID_PATTERN.source,
      });
    }
    const decision = decideAccess(caller, requirement, this.ancestorsOf);
    if (decision === 'allow') return caller;
    if (requirement.kind === 'admin') throw new ApiError('forbidden', 'this operation needs an admin token');
    const agentId = requirement.kind === 'agent' ? requirement.agentId : undefined;
    if (requirement.kind === 'agent' && (agentId === undefined || canActOn(caller, agentId, this.ancestorsOf))) {
      throw new ApiError(
        'forbidden',
        `this token's role (${caller.role ?? ''}) may not call this operation: it accepts ${(requirement.roles ?? []).join(', ')}`,
        { role: caller.role ?? null, accepted_roles: [...(requirement.roles ?? [])] },
      );
    }
    throw new ApiError('forbidden', `this token may not act on agent ${agentId ?? ''}`.trim(), {
      agent_id: agentId ?? null,
    });
  }

  /** The token's caller: the one `known` found for this very header, else hashed and compared now. */
  private authenticated(token: string, authorization: string | undefined, known?: AuthenticatedHeader): Caller | null {
    return known !== undefined && known.authorization === authorization
      ? known.caller
      : this.authenticator.authenticate(token);
  }
}
