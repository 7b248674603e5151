// The one RFC 3339 rule of the runtime: every time a command takes (fire_at, recheck_at, at,
// meta.now, ...) goes through parseRfc3339, and what is stored is its normalized text.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** Days in `month` (1..12) of `year`: the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// Days since 1970-01-01 of a civil date and back (H. Hinnant's algorithms, integers only:
// no Date, so nothing rolls over and years below 100 stay themselves).
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/**
 * Parses an RFC 3339 date-time (`2026-01-02T03:04:05Z`, `...05.123456789+02:00`) on the real
 * calendar: years 0001..9999, 28/29/30/31-day months, hours 00..23, minutes and seconds 00..59
 * (no leap second: neither JavaScript's Date nor the scheduler can place a 60th second), offsets
 * up to ±23:59. Returns the same instant written in UTC (`Z`, upper-case `T`), every fractional
 * digit kept as given (tick keys read them), or null when the text is not such a date-time or its
 * UTC form leaves the year range. The offset is moved textually (whole minutes), never through
 * Date, so nothing is rounded to milliseconds.
 */
export function parseRfc3339(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return isUtcForm(value) ? value : parseAnyRfc3339(value);
}

const digitAt = (text: string, index: number): number => {
  const code = text.charCodeAt(index) - 48;
  return code >= 0 && code <= 9 ? code : -1;
};

/** The two digits at `index` as a number, or -1. */
function twoDigits(text: string, index: number): number {
  const tens = digitAt(text, index);
  const units = digitAt(text, index + 1);
  return tens < 0 || units < 0 ? -1 : tens * 10 + units;
}

/**
 * True when the text is already the UTC form parseRfc3339 returns (`YYYY-MM-DDTHH:MM:SS[.digits]Z`,
 * upper-case, a real date and time): what the app's clock writes into every command's `meta.now`.
 * parseRfc3339 then returns the text itself without the pattern match and its copies; the
 * property spec checks that the full parse maps every such text to itself.
 */
export function isUtcForm(text: string): boolean {
  const last = text.length - 1;
  if (last < 19 || text.charCodeAt(last) !== 90 /* Z */) return false;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return false;
  if (last > 19) {
    if (text[19] !== '.' || last === 20) return false;
    for (let i = 20; i < last; i++) if (digitAt(text, i) < 0) return false;
  }
  const high = twoDigits(text, 0);
  const low = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (high < 0 || low < 0 || hour < 0 || minute < 0 || second < 0) return false;
  const year = high * 100 + low;
  if (year < MIN_YEAR || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  return hour <= 23 && minute <= 59 && second <= 59;
}

/** parseRfc3339 for any text: the pattern, the calendar, the offset moved to UTC. */
export function parseAnyRfc3339(value: string): string | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  const fraction = m[7] === undefined ? '' : `.${m[7]}`;
  if (year < MIN_YEAR || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const time = `:${pad(second, 2)}${fraction}Z`;
  if (m[8] === undefined) return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}${time}`;
  const [offsetHours, offsetMinutes] = [Number(m[9]), Number(m[10])];
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const sign = m[8] === '-' ? -1 : 1;
  const minutes =
    daysFromCivil(year, month, day) * 1440 + hour * 60 + minute - sign * (offsetHours * 60 + offsetMinutes);
  const [y, mo, d] = civilFromDays(Math.floor(minutes / 1440));
  if (y < MIN_YEAR || y > MAX_YEAR) return null;
  const ofDay = minutes - Math.floor(minutes / 1440) * 1440;
  return `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(Math.floor(ofDay / 60), 2)}:${pad(ofDay % 60, 2)}${time}`;
}

/** True for a date-time parseRfc3339 accepts. */
export function isRfc3339(value: unknown): value is string {
  return parseRfc3339(value) !== null;
}

const FRACTION = /\.(\d+)/;

/** The fractional digits below the millisecond (`.1234567` -> `4567`). */
const belowMillis = (text: string): string => (FRACTION.exec(text)?.[1] ?? '').slice(3);

/**
 * Orders two RFC 3339 instants (negative when `a` is earlier): by the millisecond (offsets
 * respected), then by the digits below it, then by the text, so two writings of one instant
 * still order the same way every time.
 */
export function compareInstants(a: string, b: string): number {
  const diff = Date.parse(a) - Date.parse(b);
  if (Number.isFinite(diff) && diff !== 0) return diff;
  if (Number.isFinite(diff)) {
    const [x, y] = [belowMillis(a), belowMillis(b)];
    const width = Math.max(x.length, y.length);
    const [px, py] = [x.padEnd(width, '0'), y.padEnd(width, '0')];
    if (px !== py) return px < py ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
