import { ApiError } from '../errors/error-codes';

export const MAX_JSON_DEPTH = 32;
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parse a request body as JSON, refusing (400 validation_failed) what API.md forbids:
 * nesting deeper than `maxDepth` (checked on the text, before parsing) and any
 * `__proto__`, `constructor` or `prototype` key. An empty body is `undefined`.
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
      if (depth > maxDepth) {
        throw new ApiError('validation_failed', `JSON nested deeper than ${maxDepth} levels`, { reason: 'too_deep', max_depth: maxDepth });
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
}

/** Iterative walk (no recursion): JSON.parse makes `__proto__` an own key, so Object.keys sees it. */
export function assertNoForbiddenKeys(value: unknown): void {
  const stack: { node: unknown; path: string }[] = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, path: `${path}[${index}]` }));
      continue;
    }
    for (const key of Object.keys(node)) {
      const here = path ? `${path}.${key}` : key;
      if (FORBIDDEN_JSON_KEYS.has(key)) {
        throw new ApiError('validation_failed', `forbidden JSON key '${key}'`, { reason: 'forbidden_key', key, path: here });
      }
      stack.push({ node: (node as Record<string, unknown>)[key], path: here });
    }
  }
}
