import { AccessRequirement, ApiError, Caller, RequestAuthorizer } from '@app/platform';
import { decideAccess } from './access-decision';
import { parseBearer, TokenAuthenticator } from './bearer-token';

/** The one authorizer both transports use (HTTP guard, gRPC host). */
export class TokenRequestAuthorizer implements RequestAuthorizer {
  constructor(private readonly authenticator: TokenAuthenticator) {}

  authorize(authorization: string | undefined, requirement: AccessRequirement): Caller | null {
    const token = parseBearer(authorization);
    const caller = token === null ? null : this.authenticator.authenticate(token);
    if (requirement.kind === 'public') return caller;
    if (caller === null) {
      const why = authorization === undefined ? 'missing bearer token' : token === null ? 'malformed Authorization header: expected `Bearer <token>`' : 'unknown token';
      throw new ApiError('unauthorized', why);
    }
    const decision = decideAccess(caller, requirement);
    if (decision === 'allow') return caller;
    if (requirement.kind === 'admin') throw new ApiError('forbidden', 'this operation needs an admin token');
    const agentId = requirement.kind === 'agent' ? requirement.agentId : undefined;
    throw new ApiError('forbidden', `this token may not act on agent ${agentId ?? ''}`.trim(), { agent_id: agentId ?? null });
  }
}
