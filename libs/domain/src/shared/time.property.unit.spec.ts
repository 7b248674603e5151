import fc from 'fast-check';
import { DomainError } from './domain-error';
import { assertCommandMeta } from './command-meta';
import { compareInstants, daysInMonth, isRfc3339, isUtcForm, parseAnyRfc3339, parseRfc3339 } from './time';
import { requireTimestamp } from './validation';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const stamp = (year: number, month: number, day: number, rest = 'T00:00:00Z') =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}${rest}`;

/** The calendar as Date sees it (setUTCFullYear: years below 100 are not moved to 19xx). */
function dateDaysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

describe('parseRfc3339: the UTC form it returns is recognised without the full parse', () => {
  /** Two digits, mostly within [min, max] and sometimes anywhere in 00..99. */
  const two = (min: number, max: number) =>
    fc
      .oneof(
        { weight: 6, arbitrary: fc.integer({ min, max }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 99 }) },
      )
      .map((n) => pad(n));
  const text = fc
    .record({
      year: fc.oneof(
        fc.integer({ min: 0, max: 9999 }).map((n) => pad(n, 4)),
        fc.constantFrom('0000', '0001', '2024', '2100', '20x4'),
      ),
      month: two(1, 12),
      day: two(1, 31),
      t: fc.constantFrom('T', 'T', 'T', 't', ' '),
      hour: two(0, 23),
      minute: two(0, 59),
      second: two(0, 59),
      fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,12}$/), fc.constantFrom('.', '.5a', '.١')),
      zone: fc.constantFrom('Z', 'Z', 'Z', 'z', '+00:00', '-01:30', '', 'ZZ'),
      sep: fc.constantFrom('-', '-', '-', '/'),
    })
    .map((p) => `${p.year}${p.sep}${p.month}-${p.day}${p.t}${p.hour}:${p.minute}:${p.second}${p.fraction}${p.zone}`);

  it('answers every text exactly as the full parse does, and only texts that parse to themselves', () => {
    let recognised = 0;
    fc.assert(
      fc.property(
        fc.oneof({ weight: 9, arbitrary: text }, { weight: 1, arbitrary: fc.string({ maxLength: 32 }) }),
        (value) => {
          expect(parseRfc3339(value)).toBe(parseAnyRfc3339(value));
          if (isUtcForm(value)) {
            recognised++;
            expect(parseAnyRfc3339(value)).toBe(value);
          }
        },
      ),
      { numRuns: 5000 },
    );
    expect(recognised).toBeGreaterThan(100);
  });

  it('recognises what the clock writes and nothing in another form', () => {
    expect(isUtcForm(new Date(Date.UTC(2026, 10, 27, 4, 5, 6, 789)).toISOString())).toBe(true);
    expect(isUtcForm('2024-02-29T23:59:59Z')).toBe(true);
    expect(isUtcForm('2023-02-29T23:59:59Z')).toBe(false);
    expect(isUtcForm('2026-01-02t03:04:05Z')).toBe(false);
    expect(isUtcForm('2026-01-02T03:04:05z')).toBe(false);
    expect(isUtcForm('2026-01-02T03:04:05.Z')).toBe(false);
    expect(isUtcForm('2026-01-02T03:04:05+00:00')).toBe(false);
    expect(isUtcForm('0000-01-02T03:04:05Z')).toBe(false);
  });
});

describe('parseRfc3339: the one time rule of the commands', () => {
  describe('given the days of every month', () => {
    const months: [number, number][] = [
      [1, 31],
      [2, 28],
      [3, 31],
      [4, 30],
      [5, 31],
      [6, 30],
      [7, 31],
      [8, 31],
      [9, 30],
      [10, 31],
      [11, 30],
      [12, 31],
    ];
    it.each(months)('month %i of 2023 has %i days: the last is accepted, the next refused', (month, days) => {
      expect(parseRfc3339(stamp(2023, month, days))).toBe(stamp(2023, month, days));
      expect(parseRfc3339(stamp(2023, month, days + 1))).toBeNull();
      expect(parseRfc3339(stamp(2023, month, 0))).toBeNull();
    });
  });

  describe('given leap years', () => {
    it.each([
      [1900, false],
      [2000, true],
      [2023, false],
      [2024, true],
      [2100, false],
      [2400, true],
      [4, true],
      [1, false],
    ])('year %i is a leap year: %s', (year, leap) => {
      expect(isRfc3339(stamp(year, 2, 29))).toBe(leap);
      expect(isRfc3339(stamp(year, 2, 28))).toBe(true);
      expect(isRfc3339(stamp(year, 2, 30))).toBe(false);
    });
  });

  describe('given the dates of issue 14', () => {
    it.each(['2021-02-30T00:00:00Z', '2030-06-31T00:00:00Z', '0000-01-01T00:00:00Z'])('refuses %s', (value) => {
      expect(parseRfc3339(value)).toBeNull();
      expect(() => requireTimestamp(value, 'fire_at')).toThrow(
        expect.objectContaining({
          code: 'validation_failed',
          details: { field: 'fire_at', rule: 'invalid_timestamp' },
        }),
      );
    });
  });

  describe('given the year bounds', () => {
    it.each([
      ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
      ['9999-12-31T23:59:59.999999999Z', '9999-12-31T23:59:59.999999999Z'],
      ['0001-01-01T01:00:00+01:00', '0001-01-01T00:00:00Z'],
      ['9999-12-31T20:59:59-02:59', '9999-12-31T23:58:59Z'],
      ['0099-03-01T00:30:00+01:00', '0099-02-28T23:30:00Z'],
    ])('accepts %s as %s', (value, utc) => {
      expect(parseRfc3339(value)).toBe(utc);
    });
    it.each([
      '0000-12-31T23:59:59Z',
      '10000-01-01T00:00:00Z',
      '0001-01-01T00:59:59+01:00',
      '9999-12-31T23:00:00-01:00',
      '-0001-01-01T00:00:00Z',
    ])('refuses %s (its UTC form is outside 0001..9999)', (value) => {
      expect(parseRfc3339(value)).toBeNull();
    });
  });

  describe('given offsets', () => {
    it.each([
      ['2026-01-02T03:04:05+02:00', '2026-01-02T01:04:05Z'],
      ['2026-01-01T01:00:00+02:00', '2025-12-31T23:00:00Z'],
      ['2024-02-28T22:30:00-01:30', '2024-02-29T00:00:00Z'],
      ['2023-02-28T22:30:00-01:30', '2023-03-01T00:00:00Z'],
      ['2026-06-30T23:59:59.5-23:59', '2026-07-01T23:58:59.5Z'],
      ['2026-01-02T03:04:05+00:00', '2026-01-02T03:04:05Z'],
      ['2026-01-02T03:04:05-00:00', '2026-01-02T03:04:05Z'],
      ['2026-01-02t03:04:05z', '2026-01-02T03:04:05Z'],
    ])('writes %s as %s', (value, utc) => {
      expect(parseRfc3339(value)).toBe(utc);
      expect(Date.parse(utc)).toBe(Date.parse(value.replace(/(\.\d{3})\d+/, '$1')));
    });
    it.each([
      '2026-01-02T03:04:05+24:00',
      '2026-01-02T03:04:05+02:60',
      '2026-01-02T03:04:05+0200',
      '2026-01-02T03:04:05',
    ])('refuses %s', (value) => {
      expect(parseRfc3339(value)).toBeNull();
    });
  });

  describe('given fractions of 1 to 9 digits', () => {
    it.each([1, 2, 3, 4, 5, 6, 7, 8, 9])('keeps all %i digits, through an offset too', (digits) => {
      const fraction = '123456789'.slice(0, digits);
      expect(parseRfc3339(`2026-03-04T05:06:07.${fraction}Z`)).toBe(`2026-03-04T05:06:07.${fraction}Z`);
      expect(parseRfc3339(`2026-03-04T05:06:07.${fraction}+05:30`)).toBe(`2026-03-03T23:36:07.${fraction}Z`);
    });
    it.each(['2026-03-04T05:06:07.Z', '2026-03-04T05:06:07,5Z'])('refuses %s', (value) => {
      expect(parseRfc3339(value)).toBeNull();
    });
  });

  describe('given times of day', () => {
    it.each(['2026-01-02T24:00:00Z', '2026-01-02T23:60:00Z', '2026-12-31T23:59:60Z', '2026-01-02T3:04:05Z'])(
      'refuses %s (no leap second: Date and the scheduler cannot place it)',
      (value) => {
        expect(parseRfc3339(value)).toBeNull();
      },
    );
    it.each([42, null, undefined, {}, '', 'yesterday', '2026-01-02'])('refuses %j', (value) => {
      expect(parseRfc3339(value)).toBeNull();
    });
  });

  describe('properties', () => {
    const date = fc
      .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
      .chain(({ year, month }) =>
        fc.record({
          year: fc.constant(year),
          month: fc.constant(month),
          day: fc.integer({ min: 1, max: 31 }),
          hour: fc.integer({ min: 0, max: 23 }),
          minute: fc.integer({ min: 0, max: 59 }),
          second: fc.integer({ min: 0, max: 59 }),
          fraction: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
          offset: fc.option(
            fc.record({ sign: fc.constantFrom('+', '-'), minutes: fc.integer({ min: 0, max: 1439 }) }),
            {
              nil: undefined,
            },
          ),
        }),
      );
    const textOf = (d: {
      year: number;
      month: number;
      day: number;
      hour: number;
      minute: number;
      second: number;
      fraction?: string;
      offset?: { sign: string; minutes: number };
    }): string => {
      const zone = d.offset
        ? `${d.offset.sign}${pad(Math.floor(d.offset.minutes / 60))}:${pad(d.offset.minutes % 60)}`
        : 'Z';
      const fraction = d.fraction === undefined ? '' : `.${d.fraction}`;
      return `${stamp(d.year, d.month, d.day, '')}T${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}${fraction}${zone}`;
    };
    /** Milliseconds since the epoch (Date reads at most three fractional digits the same everywhere). */
    const ms = (text: string) => Date.parse(text.replace(/\.(\d{1,3})\d*/, '.$1'));
    const below = (text: string) => (/\.(\d+)/.exec(text)?.[1] ?? '').slice(3).padEnd(9, '0');
    const sameInstant = (a: string, b: string) => ms(a) === ms(b) && below(a) === below(b);

    it('accepts a date exactly when the calendar has it, and then names the same instant in UTC', () => {
      fc.assert(
        fc.property(date, (d) => {
          const text = textOf(d);
          const utc = parseRfc3339(text);
          if (d.day > dateDaysInMonth(d.year, d.month)) return utc === null;
          if (utc === null) {
            // Only an offset that moves the instant out of 0001..9999 refuses a calendar date.
            return d.offset !== undefined && (d.year === 1 || d.year === 9999);
          }
          return utc.endsWith(`${d.fraction === undefined ? '' : `.${d.fraction}`}Z`) && ms(utc) === ms(text);
        }),
        { numRuns: 2000 },
      );
    });

    it('is idempotent: the UTC form parses to itself', () => {
      fc.assert(
        fc.property(date, (d) => {
          const utc = parseRfc3339(textOf(d));
          return utc === null || parseRfc3339(utc) === utc;
        }),
      );
    });

    it('orders the UTC forms as compareInstants orders the texts', () => {
      fc.assert(
        fc.property(date, date, (a, b) => {
          const [x, y] = [parseRfc3339(textOf(a)), parseRfc3339(textOf(b))];
          if (x === null || y === null) return true;
          if (sameInstant(x, y)) return true;
          return Math.sign(compareInstants(x, y)) === Math.sign(compareInstants(textOf(a), textOf(b)));
        }),
      );
    });

    it('agrees with daysInMonth', () => {
      for (const year of [1, 4, 100, 1900, 2000, 2024, 9999])
        for (let month = 1; month <= 12; month += 1)
          expect(daysInMonth(year, month)).toBe(dateDaysInMonth(year, month));
    });
  });
});

describe('compareInstants below the millisecond', () => {
  it.each([
    ['2026-01-01T00:00:00.1234Z', '2026-01-01T00:00:00.123Z', 1],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.0001Z', -1],
    ['2026-01-01T00:00:00.000000001Z', '2026-01-01T00:00:00Z', 1],
    ['2026-01-01T00:00:00.1Z', '2026-01-01T00:00:00.100000001Z', -1],
  ])('%s vs %s: %i', (a, b, sign) => {
    expect(Math.sign(compareInstants(a, b))).toBe(sign);
    expect(Math.sign(compareInstants(b, a))).toBe(-sign);
  });
});

describe('meta.now', () => {
  it('is refused when impossible, and given back in UTC', () => {
    expect(() => assertCommandMeta({ now: '2021-02-30T00:00:00Z', command_id: 'c' })).toThrow(DomainError);
    expect(assertCommandMeta({ now: '2026-01-02T03:04:05.5+01:00', command_id: 'c' }).now).toBe(
      '2026-01-02T02:04:05.5Z',
    );
  });
});
