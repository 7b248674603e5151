import { ApiError } from '../errors/error-codes';
import { MAX_JSON_DEPTH, parseGuardedJson } from './json-guard';

const nested = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

const refusal = (text: string): ApiError => {
  try {
    parseGuardedJson(text);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('parseGuardedJson on ordinary bodies', () => {
  it.each([
    ['{"agent_id":"a-1","n":1,"ok":true,"list":[1,{"x":null}]}', { agent_id: 'a-1', n: 1, ok: true, list: [1, { x: null }] }],
    ['"just a string"', 'just a string'],
    ['[]', []],
  ])('parses %s', (text, value) => {
    expect(parseGuardedJson(text)).toEqual(value);
  });

  it('reads an empty body as undefined', () => {
    expect(parseGuardedJson('  \n')).toBeUndefined();
  });

  it(`accepts exactly ${MAX_JSON_DEPTH} levels of objects and of arrays`, () => {
    expect(() => parseGuardedJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseGuardedJson(nestedArrays(MAX_JSON_DEPTH))).not.toThrow();
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ text: '{'.repeat(100) + '\\"[[[' + '['.repeat(100) });
    expect(parseGuardedJson(text)).toEqual(JSON.parse(text));
  });

  it('accepts forbidden words as values, and keys that merely contain them', () => {
    expect(parseGuardedJson('{"kind":"constructor","prototype_id":"x","my__proto__":1}')).toEqual({ kind: 'constructor', prototype_id: 'x', my__proto__: 1 });
  });
});

describe('parseGuardedJson on hostile bodies', () => {
  it(`refuses ${MAX_JSON_DEPTH + 1} levels with validation_failed`, () => {
    const error = refusal(nested(MAX_JSON_DEPTH + 1));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({ reason: 'too_deep', max_depth: MAX_JSON_DEPTH });
  });

  it('refuses deep arrays before parsing them (100k levels do not reach JSON.parse)', () => {
    expect(refusal(nestedArrays(100_000)).details.reason).toBe('too_deep');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key anywhere, naming its path', (key) => {
    const error = refusal(`{"a":[{"b":{"${key}":{"polluted":true}}}]}`);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({ reason: 'forbidden_key', key, path: `a[0].b.${key}` });
  });

  it('refuses a top-level __proto__ and leaves Object.prototype alone', () => {
    expect(refusal('{"__proto__":{"isAdmin":true}}').details.key).toBe('__proto__');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('refuses malformed JSON', () => {
    expect(refusal('{"a":').details).toEqual({ reason: 'malformed_json' });
  });
});
