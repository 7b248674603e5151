import { Client, type Pool } from 'pg';

/** Marks the sampler's own statements, which the statement counter leaves out. */
const SAMPLER_MARK = '/* bench: pg_stat_activity sampler */';

/** What a statement is, for counting round trips per command. */
export function statementKind(sql: string): string {
  if (sql.includes('append_events(')) return 'append (append_events)';
  if (sql.includes('pg_notify')) return 'NOTIFY (coalesced wake-up)';
  if (/FROM events e\s+WHERE e\.stream_id/.test(sql)) return 'stream read';
  if (sql.includes('FROM events')) return 'other events read';
  if (sql.includes('agent_snapshots')) return sql.trimStart().startsWith('SELECT') ? 'snapshot read' : 'snapshot write';
  return sql.replace(/\s+/g, ' ').trim().split(' ').slice(0, 3).join(' ');
}

/**
 * Counts the statements this process sends to Postgres while `body` runs (every pg client,
 * pooled or not), by kind. Instrumentation for "where the time goes"; not used in timed runs.
 */
export async function countStatements<T>(body: () => Promise<T>): Promise<{ result: T; counts: Map<string, number> }> {
  const prototype = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  const counts = new Map<string, number>();
  prototype.query = function query(this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text =
      typeof first === 'string'
        ? first
        : typeof first === 'object' && first && 'text' in first
          ? String((first as { text: unknown }).text)
          : null;
    if (text && !text.includes(SAMPLER_MARK)) {
      const kind = statementKind(text);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
  try {
    return { result: await body(), counts };
  } finally {
    prototype.query = original;
  }
}

export function describeStatements(counts: Map<string, number>, per: number, unit: string): string {
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, n]) => `${(n / per).toFixed(2)} ${kind}`)
      .join(', ') + ` per ${unit}`
  );
}

/**
 * Samples `pg_stat_activity` every few ms while `body` runs: what the server's client backends
 * of this database are doing (CPU when no wait event is set), as shares of the busy samples.
 */
export async function sampleBackends<T>(
  pool: Pool,
  body: () => Promise<T>,
  everyMs = 5,
): Promise<{ result: T; shares: Array<[string, number]>; busyBackends: number }> {
  const client = await pool.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let busy = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const { rows } = await client.query<{ what: string }>(
        `${SAMPLER_MARK} SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'CPU') ELSE state END AS what
           FROM pg_stat_activity
          WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
            AND state IN ('active', 'idle in transaction')`,
      );
      samples += 1;
      for (const row of rows) {
        if (row.what === 'Client:ClientRead') continue;
        busy += 1;
        counts.set(row.what, (counts.get(row.what) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    const result = await body();
    return {
      result,
      shares: [...counts].sort((a, b) => b[1] - a[1]).map(([what, n]) => [what, busy ? n / busy : 0]),
      busyBackends: samples ? busy / samples : 0,
    };
  } finally {
    running = false;
    await sampler.catch(() => undefined);
    client.release();
  }
}

export function describeBackends(sampled: { shares: Array<[string, number]>; busyBackends: number }, top = 6): string {
  return (
    `Postgres backends (pg_stat_activity samples): ${sampled.busyBackends.toFixed(1)} busy on average; ` +
    sampled.shares
      .slice(0, top)
      .map(([what, share]) => `${what} ${(share * 100).toFixed(0)}%`)
      .join(', ')
  );
}
