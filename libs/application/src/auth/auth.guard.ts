import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ADMIN_ONLY_ROUTE, PUBLIC_ROUTE, ROUTE_ROLES } from './route-metadata';
import type { TokenRole } from './roles';
import {
  authorizeAtEdge,
  REQUEST_AUTHORIZER,
  type AccessRequirement,
  type AuthenticatedHeader,
  type Caller,
  type RequestAuthorizer,
} from './request-authorizer';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by ApiAuthGuard; read it with @CurrentCaller(). */
    caller?: Caller | null;
    /**
     * The bearer header as the rate-limit hook (onRequest) authenticated it: the guard takes the
     * caller from it instead of hashing and comparing the token a second time.
     */
    authenticated?: AuthenticatedHeader;
  }
}

/**
 * Global guard, secure by default: every route needs a bearer token unless @Public().
 * A route with an `:agent_id` path param needs a token with access to that agent (403
 * otherwise, before any handler runs, so nothing is written) and a role that the route's
 * @Roles() accepts; @AdminOnly() needs `*`.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(REQUEST_AUTHORIZER) private readonly authorizer: RequestAuthorizer,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const requirement: AccessRequirement = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)
      ? { kind: 'public' }
      : this.reflector.getAllAndOverride<boolean>(ADMIN_ONLY_ROUTE, targets)
        ? { kind: 'admin' }
        : {
            kind: 'agent',
            agentId: params.agent_id,
            roles: this.reflector.getAllAndOverride<readonly TokenRole[] | undefined>(ROUTE_ROLES, targets),
          };
    const known = request.authenticated;
    try {
      request.caller = this.authorizer.authorize(request.headers.authorization, requirement, known);
      return true;
    } catch (error) {
      // A refusal may be a private child spawned on another replica a moment ago: ask the store.
      if (!this.authorizer.authorizeResolving) throw error;
      return authorizeAtEdge(this.authorizer, request.headers.authorization, requirement, known).then((caller) => {
        request.caller = caller;
        return true;
      });
    }
  }
}
