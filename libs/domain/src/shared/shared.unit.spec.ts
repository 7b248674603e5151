import { DomainError, isDomainError, validationFailed } from './domain-error';
import { assertValidId, isValidId } from './ids';
import { charLength, requireTrimmedText } from './text';
import { compareInstants, isRfc3339 } from './time';

describe('id validation (docs/api.md pattern)', () => {
  it.each([
    ['w-1', true],
    ['A', true],
    ['0abc', true],
    ['a.b:c_d-e', true],
    ['a'.repeat(128), true],
    ['', false],
    ['a'.repeat(129), false],
    ['-a', false],
    ['.hidden', false],
    ['_a', false],
    ['a/b', false],
    ['a b', false],
    ['a\\b', false],
    ['é', false],
    ['..', false],
  ])('%j is valid: %s', (id, valid) => {
    expect(isValidId(id)).toBe(valid);
  });

  it('rejects non-strings', () => {
    expect(isValidId(42)).toBe(false);
    expect(isValidId(null)).toBe(false);
  });

  it('assertValidId throws validation_failed naming the field', () => {
    expect(() => assertValidId('a b', 'work_item_id')).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        details: expect.objectContaining({ field: 'work_item_id' }),
      }),
    );
  });

  it('generated work item ids match the id pattern', () => {
    const generated = `work_${'0123456789abcdef'.repeat(2)}`;
    expect(isValidId(generated)).toBe(true);
  });
});

describe('RFC 3339 timestamps', () => {
  it.each([
    ['2026-01-02T03:04:05Z', true],
    ['2026-01-02T03:04:05.123456Z', true],
    ['2026-01-02T03:04:05+02:00', true],
    ['2026-01-02t03:04:05z', true],
    ['2026-01-02', false],
    ['2026-01-02T03:04:05', false],
    ['2026-13-02T03:04:05Z', false],
    ['2026-01-02T24:00:00Z', false],
    ['yesterday', false],
    ['', false],
  ])('%j is RFC 3339: %s', (value, valid) => {
    expect(isRfc3339(value)).toBe(valid);
  });

  it('orders instants across offsets and below the millisecond', () => {
    expect(compareInstants('2026-01-01T01:00:00+02:00', '2026-01-01T00:00:00Z')).toBeLessThan(0);
    expect(compareInstants('2026-01-01T00:00:00.000002Z', '2026-01-01T00:00:00.000001Z')).toBeGreaterThan(0);
    expect(compareInstants('2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')).toBe(0);
  });
});

describe('text limits', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(charLength('😀😀')).toBe(2);
  });

  it('trims before checking the length', () => {
    expect(requireTrimmedText(`  ${'x'.repeat(5)}  `, 'f', { min: 1, max: 5 })).toBe('xxxxx');
  });

  it.each([[''], ['   '], ['x'.repeat(6)], [7]])('refuses %j', (value) => {
    expect(() => requireTrimmedText(value, 'f', { min: 1, max: 5 })).toThrow(DomainError);
  });
});

describe('DomainError', () => {
  it('carries a code from the union and details', () => {
    const error = validationFailed('objective', 'too_long', { max_length: 500 });
    expect(isDomainError(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({ field: 'objective', rule: 'too_long', max_length: 500 });
    expect(error.message).toBe('objective: too long');
  });

  it('builds a message from the details when none is given', () => {
    expect(new DomainError('not_found', { resource: 'work_item' }).message).toBe('not_found: work_item');
  });
});
