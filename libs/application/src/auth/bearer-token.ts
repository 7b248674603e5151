import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiTokenGrant } from './api-tokens';
import type { Caller } from './request-authorizer';

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The token of `Authorization: Bearer <token>`, or null when the header is absent or malformed. */
export function parseBearer(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  return match ? match[1]! : null;
}

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * Token lookup in constant time: every grant is compared (fixed-length SHA-256
 * digests, timingSafeEqual), with no early exit on a match.
 */
export class TokenAuthenticator {
  private readonly entries: readonly { digest: Buffer; caller: Caller }[];

  constructor(grants: readonly ApiTokenGrant[]) {
    this.entries = grants.map((grant) => ({
      digest: digest(grant.token),
      caller: Object.freeze({ tokenName: grant.name, agents: Object.freeze([...grant.agents]), admin: grant.admin }),
    }));
  }

  authenticate(token: string): Caller | null {
    const presented = digest(token);
    let found: Caller | null = null;
    for (const entry of this.entries) {
      const equal = timingSafeEqual(entry.digest, presented);
      if (equal && found === null) found = entry.caller;
    }
    return found;
  }
}
