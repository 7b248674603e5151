import type { ExpectedRevision } from './event-store.port';

/**
 * Revisions and positions are bigint in memory and decimal strings on the wire:
 * JSON.stringify throws on bigint, and Number loses precision beyond 2^53.
 */

const DECIMAL = /^(0|[1-9][0-9]*)$/;
/** Largest revision/position either store can hold (EventStoreDB uses unsigned 64 bit). */
export const MAX_UINT64 = (1n << 64n) - 1n;

export function toJsonRevision(value: bigint): string {
  return value.toString(10);
}

/** Parse a non-negative decimal string; throws RangeError on anything else (no hex, no sign, no exponent). */
export function fromJsonRevision(value: string): bigint {
  if (!DECIMAL.test(value)) throw new RangeError(`not a revision: ${JSON.stringify(value)}`);
  const parsed = BigInt(value);
  if (parsed > MAX_UINT64) throw new RangeError(`revision out of range: ${value}`);
  return parsed;
}

export const toJsonPosition = toJsonRevision;
export const fromJsonPosition = fromJsonRevision;

/** `no_stream` | `stream_exists` | `any` | a decimal revision. */
export function toJsonExpectedRevision(expected: ExpectedRevision): string {
  return typeof expected === 'bigint' ? toJsonRevision(expected) : expected;
}

/** Guard shared by the adapters: a negative or oversized expected revision is a caller bug. */
export function assertExpectedRevision(expected: ExpectedRevision): void {
  if (typeof expected === 'bigint') {
    if (expected < 0n || expected > MAX_UINT64) throw new RangeError(`expected revision out of range: ${expected}`);
    return;
  }
  if (expected !== 'no_stream' && expected !== 'stream_exists' && expected !== 'any') {
    throw new RangeError(`unknown expected revision: ${String(expected)}`);
  }
}
