const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** True for a full RFC 3339 date-time with an offset (`2026-01-02T03:04:05Z`, `...+02:00`). */
export function isRfc3339(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  const offsetOk = m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59);
  const fieldsOk = month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60;
  return fieldsOk && offsetOk && Number.isFinite(Date.parse(value));
}

/**
 * Orders two RFC 3339 instants (negative when `a` is earlier). Equal milliseconds fall back to
 * the text, so sub-millisecond stamps written with one offset still order correctly.
 */
export function compareInstants(a: string, b: string): number {
  const diff = Date.parse(a) - Date.parse(b);
  if (Number.isFinite(diff) && diff !== 0) return diff;
  return a < b ? -1 : a > b ? 1 : 0;
}
