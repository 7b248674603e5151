import { performance } from 'node:perf_hooks';
import type { EventStore } from '@app/event-store';
import { ApiError } from '@app/platform';

/** What a rebuild needs of the projection runner (`ProjectionRunner` of libs/read-models). */
export interface RebuildableProjection {
  readonly name: string;
  rebuild(onProgress?: (applied: number) => void): Promise<number>;
}

/** The one query the status needs; structurally a `pg.Pool` (the application does not import pg). */
export interface SqlReader {
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export interface ProjectionStatus {
  name: string;
  /** Position of the last event applied ("-1": nothing yet). */
  checkpoint: string;
  /** Position of the newest committed event (null: empty store). */
  head: string | null;
  /** head - checkpoint, never negative (null: empty store). */
  lag: string | null;
  updated_at: string | null;
}

export interface RebuildResult {
  projection: string;
  events: number;
  duration_ms: number;
  events_per_s: number;
}

/** Checkpoints (stored with the rows they cover) against the store's head. */
export async function projectionStatus(sql: SqlReader, store: EventStore): Promise<ProjectionStatus[]> {
  const [{ rows }, head] = await Promise.all([
    sql.query(`SELECT projection, position::text AS position,
      to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
      FROM projection_checkpoints ORDER BY projection`),
    store.headPosition(),
  ]);
  return rows.map((row) => {
    const checkpoint = BigInt(String(row.position));
    const lag = head === null ? null : head > checkpoint ? head - checkpoint : 0n;
    return { name: String(row.projection), checkpoint: checkpoint.toString(), head: head?.toString() ?? null, lag: lag?.toString() ?? null, updated_at: (row.updated_at as string | null) ?? null };
  });
}

/** Drops and replays one projection from position 0, timed. */
export async function timedRebuild(projection: RebuildableProjection, onProgress?: (applied: number) => void): Promise<RebuildResult> {
  const started = performance.now();
  const events = await projection.rebuild(onProgress);
  const duration_ms = Math.round(performance.now() - started);
  return { projection: projection.name, events, duration_ms, events_per_s: Math.round((events * 1000) / Math.max(1, duration_ms)) };
}

/** Rebuilds with the in-process runner, one at a time (a second request is a conflict). */
export class ProjectionsAdmin {
  private running: string | null = null;

  constructor(private readonly sql: SqlReader, private readonly store: EventStore, private readonly runner: () => RebuildableProjection | null) {}

  status(): Promise<ProjectionStatus[]> {
    return projectionStatus(this.sql, this.store);
  }

  async rebuild(): Promise<RebuildResult> {
    const runner = this.runner();
    if (runner === null) {
      throw new ApiError('conflict', 'this process runs no projector (its RUNTIME_ROLE has none): rebuild where the projector runs, or with the CLI', { reason: 'no_projector' });
    }
    if (this.running !== null) throw new ApiError('conflict', `a rebuild of ${this.running} is already running`, { reason: 'rebuild_running', projection: this.running });
    this.running = runner.name;
    try {
      return await timedRebuild(runner);
    } finally {
      this.running = null;
    }
  }
}
