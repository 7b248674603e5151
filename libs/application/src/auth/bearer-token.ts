import { hash, timingSafeEqual } from 'node:crypto';
import type { ApiTokenGrant } from './api-tokens';
import type { Caller } from './request-authorizer';
import { actorOf } from './roles';

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The token of `Authorization: Bearer <token>`, or null when the header is absent or malformed. */
export function parseBearer(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  return match ? match[1]! : null;
}

/** The two tokens of one grant give equal callers: the same actor (`ci:host`) either way. */
function callerOf(grant: ApiTokenGrant): Caller {
  const caller = {
    tokenName: actorOf(grant.name, grant.role),
    agents: Object.freeze([...grant.agents]),
    admin: grant.admin,
  };
  return Object.freeze(grant.role === undefined ? caller : { ...caller, role: grant.role });
}

const digest = (token: string): Buffer => hash('sha256', token, 'buffer');

/**
 * Token lookup in constant time: every grant is compared (fixed-length SHA-256
 * digests, timingSafeEqual), with no early exit on a match.
 */
export class TokenAuthenticator {
  private entries: readonly { digest: Buffer; caller: Caller }[] = [];

  constructor(grants: readonly ApiTokenGrant[]) {
    this.replace(grants);
  }

  /** Swap every grant at once (a reloaded tokens file): a request sees the old set or the new one. */
  replace(grants: readonly ApiTokenGrant[]): void {
    this.entries = grants.map((grant) => ({ digest: digest(grant.token), caller: callerOf(grant) }));
  }

  authenticate(token: string): Caller | null {
    const presented = digest(token);
    let found: Caller | null = null;
    const entries = this.entries;
    for (const entry of entries) {
      const equal = timingSafeEqual(entry.digest, presented);
      if (equal && found === null) found = entry.caller;
    }
    return found;
  }
}
