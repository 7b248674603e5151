export type CheckStatus = 'up' | 'down';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, CheckStatus>;
  /** The read models' checkpoint against the store's head (and a stalled position); null before any projection ran or when unreachable. */
  projection_lag: Record<string, unknown> | null;
}

export type Probe = () => Promise<void>;

export const HEALTH_PROBE_TIMEOUT_MS = 2_000;

/** Run every probe at once, each bounded by a timeout (a hung socket must not hang /health). */
export async function runHealthChecks(
  probes: Record<string, Probe>,
  timeoutMs: number = HEALTH_PROBE_TIMEOUT_MS,
): Promise<HealthReport> {
  const names = Object.keys(probes);
  const results = await Promise.all(
    names.map((name) =>
      withTimeout(probes[name]!(), timeoutMs).then(
        () => 'up' as const,
        () => 'down' as const,
      ),
    ),
  );
  const checks = Object.fromEntries(names.map((name, index) => [name, results[index]!]));
  const healthy = results.every((result) => result === 'up');
  return { status: healthy ? 'ok' : 'unavailable', checks, projection_lag: null };
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
