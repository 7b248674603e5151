import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isValidId } from '@app/domain';

/**
 * Callback tokens are capabilities for external systems that hold no API token: one per
 * external wait, returned once, stored only as a SHA-256 hash on the intent.
 *
 * Shape: `cb1.<agent id b64url>.<intent id b64url>.<32 random bytes b64url>`. The ids let the
 * callback route load the one agent that may own it (a consistent read of the aggregate, so a
 * callback right after WaitFor works); the random part is what grants access. A token that
 * does not parse, names an unknown intent, or does not match the stored hash is a plain 404.
 */
const PREFIX = 'cb1';
const PART = /^[A-Za-z0-9_-]+$/;

export interface MintedCallbackToken {
  token: string;
  hash: string;
}

export function mintCallbackToken(
  agentId: string,
  intentId: string,
  secret: Buffer = randomBytes(32),
): MintedCallbackToken {
  const token = [PREFIX, b64(agentId), b64(intentId), secret.toString('base64url')].join('.');
  return { token, hash: hashCallbackToken(token) };
}

export function hashCallbackToken(token: string): string {
  return `sha256:${hash('sha256', token)}`;
}

/** The agent and intent a token claims, or null when it is not a well-formed token. */
export function parseCallbackToken(token: string): { agentId: string; intentId: string } | null {
  if (token.length > 512) return null;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== PREFIX || !parts.slice(1).every((part) => PART.test(part))) return null;
  const agentId = Buffer.from(parts[1], 'base64url').toString('utf8');
  const intentId = Buffer.from(parts[2], 'base64url').toString('utf8');
  return isValidId(agentId) && isValidId(intentId) ? { agentId, intentId } : null;
}

/** Constant-time comparison of a presented token with the stored hash. */
export function callbackTokenMatches(token: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const presented = Buffer.from(hashCallbackToken(token));
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
