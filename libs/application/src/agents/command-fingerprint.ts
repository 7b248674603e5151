import { hash } from 'node:crypto';
import type { AgentCommand } from '@app/domain';

/**
 * Fields of a command's data that the server derives rather than the caller sends: a fresh
 * capability's hash (random per call), and a plan descriptor's path and file time (this
 * replica's disk). A plan descriptor counts by its body's hash only.
 */
const SERVER_DERIVED = new Set(['callback_token_hash']);

/**
 * What identifies a request under its Idempotency-Key (docs/decisions/0016): the domain command
 * minus its meta (who, when, which key), as JSON with sorted keys, then sha-256. HTTP and gRPC
 * build the same domain command from the same request, so they agree on it.
 * `ignore` drops fields the handler read from the server's own state (not from the request).
 */
export function commandFingerprint(
  command: Pick<AgentCommand, 'type' | 'data'>,
  ignore: readonly string[] = [],
): string {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(command.data as Record<string, unknown>)) {
    if (SERVER_DERIVED.has(key) || ignore.includes(key)) continue;
    data[key] = key === 'plan_artifact' && isRecord(value) ? { hash: value.hash } : value;
  }
  return `sha256:${hash('sha256', canonicalJson({ type: command.type, data }))}`;
}

/** JSON with every object's keys sorted; undefined members dropped as JSON.stringify drops them. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value)) ?? 'null';
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = sorted(value[key]);
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
