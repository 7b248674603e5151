import { performance } from 'node:perf_hooks';
import type { EventStore } from '@app/event-store';
import { ApiError } from '@app/core';

/** What a rebuild needs of the projection runner (`ProjectionRunner` of libs/read-models). */
export interface RebuildableProjection {
  readonly name: string;
  /** `upTo`: the position the replay runs to (it grows when the live runner moved on meanwhile). */
  rebuild(onProgress?: (applied: number, upTo: bigint | null) => void): Promise<number>;
}

/** The one query the status needs; structurally a `pg.Pool` (the application does not import pg). */
export interface SqlReader {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export interface ProjectionStatus {
  name: string;
  /** `stalled`: a poison event parked an agent (see `stalled_at`, the first open letter); `ok` otherwise. */
  status: 'ok' | 'stalled';
  /** Position of the last event applied ("-1": nothing yet). */
  checkpoint: string;
  /** Position of the newest committed event (null: empty store). */
  head: string | null;
  /** head - checkpoint, never negative (null: empty store). */
  lag: string | null;
  updated_at: string | null;
  /** The first open dead letter (GET .../dead-letters lists them all and the parked agents). */
  stalled_at: StalledAt | null;
}

/** A poison event of a projection (projection_dead_letters). */
export interface StalledAt {
  position: string;
  event_id: string;
  stream: string;
  revision: string;
  type: string;
  error: string;
  /** Failed attempts so far (the first, then each retry that failed again). */
  attempts: number;
  since: string;
  last_attempt_at: string;
}

export interface RebuildResult {
  projection: string;
  events: number;
  duration_ms: number;
  events_per_s: number;
}

const TIME = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Each checkpoint with its first open dead letter (its agent is parked, ADR 0015). */
const STATUS_SQL = `SELECT c.projection, c.position::text AS position, ${TIME('c.updated_at')} AS updated_at,
    d.position::text AS stalled_position, d.event_id, d.stream_id, d.stream_revision::text AS stream_revision, d.event_type,
    d.error, d.attempts, ${TIME('d.first_failed_at')} AS first_failed_at, ${TIME('d.last_failed_at')} AS last_failed_at
  FROM projection_checkpoints c
  LEFT JOIN LATERAL (
    SELECT * FROM projection_dead_letters l
    WHERE l.projection = c.projection AND l.resolved_at IS NULL
    ORDER BY l.position LIMIT 1
  ) d ON true
  ORDER BY c.projection`;

/** One projection's checkpoint (the global position of the last event its rows include), or null before its first batch. */
export async function projectionCheckpoint(sql: SqlReader, projection: string): Promise<bigint | null> {
  const { rows } = await sql.query(
    'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1',
    [projection],
  );
  return rows.length === 0 ? null : BigInt(String(rows[0].position));
}

/** Checkpoints (stored with the rows they cover) against the store's head, and where a runner is stalled. */
export async function projectionStatus(sql: SqlReader, store: EventStore): Promise<ProjectionStatus[]> {
  const [{ rows }, head] = await Promise.all([sql.query(STATUS_SQL), store.headPosition()]);
  return rows.map((row) => {
    const checkpoint = BigInt(String(row.position));
    const lag = head === null ? null : head > checkpoint ? head - checkpoint : 0n;
    const stalled = stalledAt(row);
    return {
      name: String(row.projection),
      status: stalled ? 'stalled' : 'ok',
      checkpoint: checkpoint.toString(),
      head: head?.toString() ?? null,
      lag: lag?.toString() ?? null,
      updated_at: (row.updated_at as string | null) ?? null,
      stalled_at: stalled,
    };
  });
}

function stalledAt(row: Record<string, unknown>): StalledAt | null {
  if (row.stalled_position === null || row.stalled_position === undefined) return null;
  return {
    position: String(row.stalled_position),
    event_id: String(row.event_id),
    stream: String(row.stream_id),
    revision: String(row.stream_revision),
    type: String(row.event_type),
    error: String(row.error),
    attempts: Number(row.attempts),
    since: String(row.first_failed_at),
    last_attempt_at: String(row.last_failed_at),
  };
}

/** Drops and replays one projection from position 0, timed. */
export async function timedRebuild(
  projection: RebuildableProjection,
  onProgress?: (applied: number, upTo: bigint | null) => void,
): Promise<RebuildResult> {
  const started = performance.now();
  const events = await projection.rebuild(onProgress);
  const duration_ms = Math.round(performance.now() - started);
  return {
    projection: projection.name,
    events,
    duration_ms,
    events_per_s: Math.round((events * 1000) / Math.max(1, duration_ms)),
  };
}

/** Rebuilds with the in-process runner, one at a time (a second request is a conflict). */
export class ProjectionsAdmin {
  private running: string | null = null;

  constructor(
    private readonly sql: SqlReader,
    private readonly store: EventStore,
    private readonly runner: () => RebuildableProjection | null,
  ) {}

  status(): Promise<ProjectionStatus[]> {
    return projectionStatus(this.sql, this.store);
  }

  async rebuild(): Promise<RebuildResult> {
    const runner = this.runner();
    if (runner === null) {
      throw new ApiError(
        'conflict',
        'this process runs no projector (its RUNTIME_ROLE has none): rebuild where the projector runs, or with the CLI',
        { reason: 'no_projector' },
      );
    }
    if (this.running !== null)
      throw new ApiError('conflict', `a rebuild of ${this.running} is already running`, {
        reason: 'rebuild_running',
        projection: this.running,
      });
    this.running = runner.name;
    try {
      return await timedRebuild(runner);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'rebuild_running')
        throw new ApiError('conflict', (error as Error).message, {
          reason: 'rebuild_running',
          projection: runner.name,
        });
      const letter = stalledLetter(error);
      if (!letter) throw error;
      throw new ApiError(
        'conflict',
        `the rebuild of ${runner.name} stopped at a poison event at position ${letter.position}: ${letter.error}`,
        {
          reason: 'projection_stalled',
          projection: runner.name,
          position: String(letter.position),
          stream: letter.stream,
          type: letter.type,
        },
      );
    } finally {
      this.running = null;
    }
  }
}

/** The dead letter of a runner's ProjectionStalledError (libs/read-models), read structurally. */
function stalledLetter(error: unknown): { position: unknown; error: string; stream: string; type: string } | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'projection_stalled')
    return null;
  const letter = (error as { letter?: { position: unknown; error: string; stream: string; type: string } }).letter;
  return letter ?? null;
}
