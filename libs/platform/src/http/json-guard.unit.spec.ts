import { ApiError } from '@app/core';
import { assertSafeJsonValue, MAX_JSON_DEPTH, parseGuardedJson } from './json-guard';

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
    [
      '{"agent_id":"a-1","n":1,"ok":true,"list":[1,{"x":null}]}',
      { agent_id: 'a-1', n: 1, ok: true, list: [1, { x: null }] },
    ],
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
    expect(parseGuardedJson('{"kind":"constructor","prototype_id":"x","my__proto__":1}')).toEqual({
      kind: 'constructor',
      prototype_id: 'x',
      my__proto__: 1,
    });
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

describe('strings the store cannot hold', () => {
  it.each([
    ['a NUL in a value', '{"objective":"a\\u0000b"}', { problem: 'nul', path: 'objective' }],
    ['a NUL deep in a stored body', '{"body":{"list":[{"k":"\\u0000"}]}}', { problem: 'nul', path: 'body.list[0].k' }],
    ['a lone high surrogate', '{"objective":"\\ud800"}', { problem: 'lone_surrogate', path: 'objective' }],
    ['a lone low surrogate', '{"objective":"x\\udfffy"}', { problem: 'lone_surrogate', path: 'objective' }],
    ['a reversed pair', '{"objective":"\\udc00\\ud800"}', { problem: 'lone_surrogate', path: 'objective' }],
    ['a NUL in a key', '{"body":{"a\\u0000":1}}', { problem: 'nul', path: 'body' }],
    ['a top-level string', '"\\u0000"', { problem: 'nul', path: '' }],
  ])('refuses %s (400 invalid_text, naming where)', (_name, text, details) => {
    expect(refusal(text).details).toEqual({ reason: 'invalid_text', ...details });
  });

  it('keeps valid multi-byte text and other control characters', () => {
    const value = { objective: '😀 é 中文 עברית e\u0301 \u200d \u0001\t\n', pair: '\ud83d\ude00' };
    expect(parseGuardedJson(JSON.stringify(value))).toEqual(value);
  });
});

describe('assertSafeJsonValue (gRPC requests and their parsed json fields)', () => {
  const deepValue = (depth: number): unknown => {
    let value: unknown = {};
    for (let i = 1; i < depth; i++) value = { a: value };
    return value;
  };
  const refusalOf = (value: unknown): ApiError => {
    try {
      assertSafeJsonValue(value);
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  };

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(() => assertSafeJsonValue(deepValue(MAX_JSON_DEPTH))).not.toThrow();
    expect(refusalOf(deepValue(MAX_JSON_DEPTH + 1)).details).toEqual({ reason: 'too_deep', max_depth: MAX_JSON_DEPTH });
  });

  it('walks 100k levels without recursion', () => {
    expect(refusalOf(deepValue(100_000)).details.reason).toBe('too_deep');
  });

  it('refuses forbidden keys made own properties by JSON.parse, and unstorable strings', () => {
    expect(refusalOf({ body: JSON.parse('{"x":{"__proto__":{"p":1}}}') }).details).toMatchObject({
      reason: 'forbidden_key',
      key: '__proto__',
      path: 'body.x.__proto__',
    });
    expect(refusalOf({ agent_id: 'a', objective: 'x\u0000' }).details).toMatchObject({
      reason: 'invalid_text',
      path: 'objective',
    });
  });
});
