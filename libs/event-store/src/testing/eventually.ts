import { setTimeout as pause } from 'node:timers/promises';

/**
 * How specs wait: on the condition they need (a checkpoint reached, a row present, a process
 * gone...), never on a fixed sleep. The one helper for every spec and test harness; a wait that
 * really is about time (a window in which nothing may happen, a bucket that must refill) stays
 * an explicit timer with a comment saying why.
 */
export interface WaitOptions {
  /** How long before giving up (default 5 s). */
  timeoutMs?: number;
  /** The pause between two probes (default 20 ms). */
  intervalMs?: number;
}

/** A wait that ran out of time: says what was awaited and carries the last value seen. */
export class WaitTimeoutError<T = unknown> extends Error {
  constructor(
    readonly what: string,
    readonly last: T | undefined,
    readonly timeoutMs: number,
    readonly probes: number,
  ) {
    super(`timed out after ${timeoutMs} ms (${probes} probes) waiting for ${what}; last value seen: ${describe(last)}`);
    this.name = 'WaitTimeoutError';
  }
}

/**
 * Probes `probe` until `accept` holds for its value, and returns that value: at once when it
 * already holds, else every `intervalMs` until `timeoutMs` has passed, then throws a
 * WaitTimeoutError naming `what` and the last value. An error thrown by the probe ends the wait
 * with that error (a probe that may fail on the way, e.g. a port not open yet, catches it).
 */
export async function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  accept: (value: T) => boolean,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = performance.now() + timeoutMs;
  for (let probes = 1; ; probes++) {
    const value = await probe();
    if (accept(value)) return value;
    const left = deadline - performance.now();
    if (left <= 0) throw new WaitTimeoutError(what, value, timeoutMs, probes);
    await pause(Math.min(intervalMs, left));
  }
}

/** Polls a synchronous condition (a checkpoint, not a sleep) until it holds or `timeoutMs` passes. */
export async function until(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  await eventually(what, condition, (held) => held, { timeoutMs });
}

/** The same for a condition that needs IO. */
export async function untilAsync(
  condition: () => Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  await eventually(what, condition, (held) => held, { timeoutMs });
}

/** A value for a failure message: JSON (bigints as text), cut to a readable length. */
function describe(value: unknown): string {
  let text: string;
  try {
    text =
      value === undefined
        ? 'undefined'
        : (JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 500 ? `${text.slice(0, 500)}...` : text;
}
