import { assertExpectedRevision, fromJsonRevision, toJsonExpectedRevision, toJsonRevision } from './revisions';

describe('revision JSON helpers', () => {
  it.each([0n, 1n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n])('round-trips %s exactly', (value) => {
    expect(fromJsonRevision(toJsonRevision(value))).toBe(value);
  });

  it.each(['', '-1', '01', '1e3', ' 1', '0x10', '1.0', '18446744073709551616'])('rejects %j', (text) => {
    expect(() => fromJsonRevision(text)).toThrow(RangeError);
  });

  it.each([
    ['no_stream', 'no_stream'],
    ['stream_exists', 'stream_exists'],
    ['any', 'any'],
    [9007199254740993n, '9007199254740993'],
  ] as const)('maps expected revision %s to %j', (expected, text) => {
    expect(toJsonExpectedRevision(expected)).toBe(text);
  });

  it('refuses negative and oversized expected revisions', () => {
    expect(() => assertExpectedRevision(-1n)).toThrow(RangeError);
    expect(() => assertExpectedRevision(2n ** 64n)).toThrow(RangeError);
    expect(() => assertExpectedRevision(2n ** 64n - 1n)).not.toThrow();
  });
});
