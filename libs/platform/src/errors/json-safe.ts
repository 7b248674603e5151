/**
 * A copy of `value` that JSON.stringify accepts and renders as the wire contract wants:
 * bigint (revisions, positions) as decimal strings. Dates and other objects with a
 * toJSON are left for JSON.stringify.
 */
export function toJsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toJsonSafe);
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = toJsonSafe(inner);
  return out;
}

/** `JSON.stringify` replacer with the same rule, for serializers that stream the whole reply. */
export function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
