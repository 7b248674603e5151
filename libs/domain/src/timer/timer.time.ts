/** `instant` + `ms`, as an RFC 3339 UTC string. */
export function addMs(instant: string, ms: number): string {
  return new Date(Date.parse(instant) + ms).toISOString();
}

/**
 * The re-armed due instant of an interval timer fired at `now`: the first `fire_at + k * interval`
 * strictly after `now`. Missed periods (an overdue timer fired on recovery) are skipped, not
 * fired in a burst, and the timer keeps its phase.
 */
export function nextFireAt(fireAt: string, intervalMs: number, now: string): string {
  const elapsed = Math.max(0, Date.parse(now) - Date.parse(fireAt));
  return addMs(fireAt, (Math.floor(elapsed / intervalMs) + 1) * intervalMs);
}

/** The due periods of an interval timer fired at `now` that this fire stands for besides its own (0 when on time). */
export function missedPeriods(fireAt: string, intervalMs: number, now: string): number {
  return Math.floor(Math.max(0, Date.parse(now) - Date.parse(fireAt)) / intervalMs);
}
