import { optionalOneOf } from '../shared/validation';

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;

export type ListReply<V> = { items: V[]; total: number };

/** Default 20, clamped to 1..100; a non-number falls back to the default. */
export function clampListLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIST_LIMIT;
  return Math.min(MAX_LIST_LIMIT, Math.max(1, Math.floor(limit)));
}

/** The first `limit` matches as views; `total` counts every match. */
export function page<T, V>(matches: readonly T[], limit: number | undefined, toView: (record: T) => V): ListReply<V> {
  return { items: matches.slice(0, clampListLimit(limit)).map(toView), total: matches.length };
}

/** Parses an optional enum query parameter (absent or empty -> `fallback`). */
export function parseListParam<T extends string>(value: unknown, field: string, allowed: readonly T[], fallback: T): T {
  return value === '' ? fallback : optionalOneOf(value, field, allowed, fallback);
}
