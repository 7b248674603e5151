import { ApiError } from '@app/core';

export const MAX_JSON_DEPTH = 32;
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A UTF-16 surrogate without its partner: JSON's `"\ud800"` parses to one, UTF-8 cannot encode it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string cannot be stored, or null. Postgres text and jsonb refuse NUL (`\u0000`) and
 * lone surrogates: accepted, they became a 500 at the store. Other control characters are
 * legitimate text and are kept.
 */
export function unstorableText(text: string): 'nul' | 'lone_surrogate' | null {
  if (text.includes('\u0000')) return 'nul';
  return LONE_SURROGATE.test(text) ? 'lone_surrogate' : null;
}

const TEXT_PROBLEMS = { nul: 'a NUL character (\\u0000)', lone_surrogate: 'a lone UTF-16 surrogate' } as const;

/** The refusal of a string (value or key) at `path` that cannot be stored. */
export function assertStorableText(text: string, path: string): void {
  const problem = unstorableText(text);
  if (problem === null) return;
  throw new ApiError('validation_failed', `${path || 'the body'} contains ${TEXT_PROBLEMS[problem]}`, {
    reason: 'invalid_text',
    problem,
    path,
  });
}

/**
 * Parse a request body as JSON, refusing (400 validation_failed) what docs/api.md forbids:
 * nesting deeper than `maxDepth` (checked on the text, before parsing), any `__proto__`,
 * `constructor` or `prototype` key, and strings the store cannot hold (NUL, lone
 * surrogates). An empty body is `undefined`.
 */
export function parseGuardedJson(text: string, maxDepth: number = MAX_JSON_DEPTH): unknown {
  if (text.trim().length === 0) return undefined;
  assertDepth(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('validation_failed', 'malformed JSON body', { reason: 'malformed_json' });
  }
  assertNoForbiddenKeys(value);
  return value;
}

/** One pass over the text counting brackets outside strings. */
export function assertDepth(text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > maxDepth) throw tooDeep(maxDepth);
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
}

const tooDeep = (maxDepth: number) =>
  new ApiError('validation_failed', `JSON nested deeper than ${maxDepth} levels`, {
    reason: 'too_deep',
    max_depth: maxDepth,
  });

/**
 * The same rules for a value that did not arrive as JSON text (a gRPC request, whose `json`
 * fields the edge parses itself): nesting deeper than `maxDepth` (the value itself is level 1,
 * as `{` is in a body), forbidden keys and unstorable strings. Iterative: any depth is safe.
 */
export function assertSafeJsonValue(value: unknown, maxDepth: number = MAX_JSON_DEPTH): void {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) throw tooDeep(maxDepth);
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) stack.push({ node: child, depth: depth + 1 });
  }
  assertNoForbiddenKeys(value);
}

/**
 * Iterative walk (no recursion): JSON.parse makes `__proto__` an own key, so Object.keys sees
 * it. Also refuses keys and string values the store cannot hold (see `unstorableText`).
 */
export function assertNoForbiddenKeys(value: unknown): void {
  // Almost every body is clean: one walk without paths says so; only a body with a problem is
  // walked again, in the same order, to name the path of its first one.
  if (!hasForbiddenKeyOrText(value)) return;
  const stack: { node: unknown; path: string }[] = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (typeof node === 'string') {
      assertStorableText(node, path);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, path: `${path}[${index}]` }));
      continue;
    }
    for (const key of Object.keys(node)) {
      const here = path ? `${path}.${key}` : key;
      if (FORBIDDEN_JSON_KEYS.has(key)) {
        throw new ApiError('validation_failed', `forbidden JSON key '${key}'`, {
          reason: 'forbidden_key',
          key,
          path: here,
        });
      }
      const problem = unstorableText(key);
      if (problem !== null) {
        throw new ApiError(
          'validation_failed',
          `a key at ${path || 'the top level'} contains ${TEXT_PROBLEMS[problem]}`,
          { reason: 'invalid_text', problem, path: path || '' },
        );
      }
      stack.push({ node: (node as Record<string, unknown>)[key], path: here });
    }
  }
}

/** Whether `assertNoForbiddenKeys` would refuse `value` (the same checks, no paths built). */
function hasForbiddenKeyOrText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (unstorableText(node) !== null) return true;
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_JSON_KEYS.has(key) || unstorableText(key) !== null) return true;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return false;
}
