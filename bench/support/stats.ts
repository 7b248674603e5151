/** Timing and statistics helpers: monotonic clock, medians, percentiles, closed loops. */

/** Nanoseconds from the monotonic clock. */
export const nowNs = (): bigint => process.hrtime.bigint();

/** Milliseconds elapsed since `start` (a `nowNs()` value), as a float. */
export const msSince = (start: bigint): number => Number(nowNs() - start) / 1e6;

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Nearest-rank percentile of an ascending array (p in 0..100). */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function percentiles(values: readonly number[] | Float64Array, ...ps: number[]): number[] {
  const sorted = Float64Array.from(values).sort();
  return ps.map((p) => percentileOfSorted(sorted, p));
}

export interface LoopResult {
  /** Units of work done (operations, or events when an operation reports more than one). */
  units: number;
  operations: number;
  seconds: number;
  /** Units per second. */
  rate: number;
  /** Per-operation latencies in ms, when asked for. */
  latencies?: Float64Array;
}

export interface ClosedLoopOptions {
  concurrency: number;
  durationMs: number;
  /** One operation of worker `worker`; resolves to the units it did (default 1). */
  operation(worker: number, iteration: number): Promise<number | void>;
  recordLatencies?: boolean;
}

/**
 * `concurrency` workers each run `operation` back to back until the time is up: the closed-loop
 * maximum rate. Every worker finishes its operation in flight; the rate divides by the real time.
 */
export async function closedLoop(options: ClosedLoopOptions): Promise<LoopResult> {
  const latencies: number[] = [];
  let units = 0;
  let operations = 0;
  const start = nowNs();
  const deadline = start + BigInt(Math.round(options.durationMs * 1e6));
  const worker = async (index: number) => {
    for (let i = 0; nowNs() < deadline; i++) {
      const t0 = options.recordLatencies ? nowNs() : 0n;
      const done = await options.operation(index, i);
      if (options.recordLatencies) latencies.push(msSince(t0));
      units += typeof done === 'number' ? done : 1;
      operations += 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => worker(index)));
  const seconds = Number(nowNs() - start) / 1e9;
  return {
    units,
    operations,
    seconds,
    rate: units / seconds,
    latencies: options.recordLatencies ? Float64Array.from(latencies) : undefined,
  };
}

/**
 * Runs every variant `repetitions` times, interleaved (a, b, a, b, ...) so that drift of a noisy
 * machine hits all of them alike, and returns each variant's values in run order.
 */
export async function interleaved<K extends string>(
  repetitions: number,
  variants: Record<K, () => Promise<number>>,
): Promise<Record<K, number[]>> {
  const keys = Object.keys(variants) as K[];
  const values = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as unknown as Record<K, number[]>;
  for (let r = 0; r < repetitions; r++) {
    for (const key of keys) values[key].push(await variants[key]());
  }
  return values;
}

/** Least-squares slope of log(y) over log(x): the exponent of a power law y ~ x^k. */
export function logLogSlope(points: ReadonlyArray<readonly [number, number]>): number {
  const xs = points.map(([x]) => Math.log(x));
  const ys = points.map(([, y]) => Math.log(y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
