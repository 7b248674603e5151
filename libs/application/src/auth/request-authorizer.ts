/**
 * The seam between the edges (the HTTP guard here, the gRPC host and the rate limit of
 * libs/platform) and auth, so that both transports apply one rule set.
 */

import type { TokenRole } from './roles';

/** Who is calling: attached to every authenticated request. */
export interface Caller {
  /**
   * The actor, printable, never the secret: `<grant name>:<role>` for a named grant (`ci:host`),
   * the grant's name for the old form (`token-2`, `admin-token`). Recorded in event metadata.
   */
  readonly tokenName: string;
  /** Agents this caller may act on; empty for admin. */
  readonly agents: readonly string[];
  readonly admin: boolean;
  /** A named grant's role; absent for the old form (every agent role on its agents). */
  readonly role?: TokenRole;
}

/** What an operation needs. */
export type AccessRequirement =
  | { readonly kind: 'public' }
  /** A valid token; when `agentId` is given, one with access to that agent. */
  | {
      readonly kind: 'agent';
      readonly agentId?: string;
      /** The roles the operation accepts (admin always passes); absent: every role. */
      readonly roles?: readonly TokenRole[];
    }
  | { readonly kind: 'admin' };

/**
 * A header already authenticated earlier in the same request (the HTTP rate-limit hook), handed
 * to the guard so that the token is hashed and compared once per request. Used only when
 * `authorization` is the very header value being authorized again.
 */
export interface AuthenticatedHeader {
  readonly authorization: string | undefined;
  /** Who the header's token names (null: no valid token). */
  readonly caller: Caller | null;
}

export interface RequestAuthorizer {
  /**
   * `authorization` is the raw header / metadata value. Returns the caller (null for a
   * public operation without a token) or throws an HttpMappable `unauthorized` /
   * `forbidden` error. `known`: the same request's header authenticated earlier, if any.
   */
  authorize(
    authorization: string | undefined,
    requirement: AccessRequirement,
    known?: AuthenticatedHeader,
  ): Caller | null;
  /**
   * The same, for the edges that can wait (the HTTP guard, the gRPC calls): an agent the token's
   * grant does not name may be resolved through the store first (a private child just spawned
   * on another replica). Absent: `authorize`.
   */
  authorizeResolving?(
    authorization: string | undefined,
    requirement: AccessRequirement,
    known?: AuthenticatedHeader,
  ): Promise<Caller | null>;
}

/** `authorizeResolving` when the authorizer has it, else `authorize`. */
export function authorizeAtEdge(
  authorizer: RequestAuthorizer,
  authorization: string | undefined,
  requirement: AccessRequirement,
  known?: AuthenticatedHeader,
): Promise<Caller | null> {
  if (authorizer.authorizeResolving) return authorizer.authorizeResolving(authorization, requirement, known);
  return Promise.resolve().then(() => authorizer.authorize(authorization, requirement, known));
}

export const REQUEST_AUTHORIZER = Symbol('REQUEST_AUTHORIZER');
