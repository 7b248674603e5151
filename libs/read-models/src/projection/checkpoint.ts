import type { Pool, PoolClient } from 'pg';
import { noticeProgress } from './progress-notice';

/**
 * A projection's resume point: the saved server checkpoint while the row covers the events
 * handed out before it, else the last event applied. Every event of the log at or before it is
 * in the read models (ADR 0043).
 */
export const RESUME_AFTER_SQL = `SELECT (CASE WHEN resume_position > position AND position >= resume_covers
    THEN resume_position ELSE position END)::text AS position
  FROM projection_checkpoints WHERE projection = $1`;

/** Raised when another instance advanced the checkpoint: this one re-reads from it. */
export class CheckpointMoved extends Error {}

/**
 * One projection's row in projection_checkpoints and this process's view of it: the position of
 * the last event applied (-1 when none), and the callers waiting for a position to be reached.
 *
 * The stored row only moves inside a batch's transaction, after `lock` found it where this
 * process left it: two runners on one projection never apply an event twice (the one that finds
 * the row moved throws CheckpointMoved and re-reads).
 */
export class Checkpoint {
  private current = -1n;
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];
  private readonly listeners = new Set<() => void>();

  /** `notify`: the live checkpoint announces every save on PROGRESS_CHANNEL (a rebuild's shadow does not). */
  constructor(
    private readonly pool: Pool,
    readonly name: string,
    private readonly options: { notify?: boolean } = {},
  ) {}

  /** Called after every move of this process's view (the waits of read-your-writes); returns the unsubscribe. */
  onMove(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The position of the last event applied, as this process knows it. */
  get position(): bigint {
    return this.current;
  }

  /** The stored position (the row is created at -1 when missing). */
  async read(): Promise<bigint> {
    await this.pool.query(
      'INSERT INTO projection_checkpoints (projection, position) VALUES ($1, -1) ON CONFLICT DO NOTHING',
      [this.name],
    );
    const { rows } = await this.pool.query(
      'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1',
      [this.name],
    );
    return BigInt(rows[0].position);
  }

  /**
   * Where the live subscription starts: after the stored position, or after the saved server
   * checkpoint (`resume_position`, migration 0020) while the row still covers every event that
   * was handed out before it (`resume_covers`: its position is at or past it). A rebuild or a
   * reset that moved the position back below it leaves it unused until the runner is there again.
   */
  async resumeAfter(): Promise<bigint> {
    await this.read();
    const { rows } = await this.pool.query<{ position: string; applied: string }>(
      `SELECT resume.position, row.position::text AS applied
         FROM (${RESUME_AFTER_SQL}) resume, projection_checkpoints row WHERE row.projection = $1`,
      [this.name],
    );
    // This process's view is the row it subscribes from, read in the same statement: another
    // runner may have applied more since this one last looked, and a runner whose view stayed
    // behind would wait for events its subscription starts after.
    this.moveTo(BigInt(rows[0].applied));
    return BigInt(rows[0].position);
  }

  /**
   * Saves a server checkpoint as the resume point, outside any batch, only if the stored row has
   * applied every event handed out before it (`covers`) and it is ahead of what is saved. Never
   * moves `position`: the checkpoint names no event, and read-your-writes waits only on events.
   */
  async saveResume(resume: bigint, covers: bigint): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE projection_checkpoints SET resume_position = $2, resume_covers = $3
        WHERE projection = $1 AND position >= $3 AND position < $2
          AND (resume_position IS NULL OR resume_position < $2 OR resume_covers > position)`,
      [this.name, resume.toString(), covers.toString()],
    );
    return (rowCount ?? 0) > 0;
  }

  /** In a batch's transaction: locks the row and throws CheckpointMoved unless it is where this process left it. */
  async lock(client: PoolClient): Promise<void> {
    const { rows } = await client.query(
      'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1 FOR UPDATE',
      [this.name],
    );
    const stored = rows.length ? BigInt(rows[0].position) : -1n;
    if (stored !== this.current)
      throw new CheckpointMoved(`checkpoint ${this.name} is at ${stored}, this runner at ${this.current}`);
  }

  /**
   * In the batch's transaction, after `lock`: stores `position` (the process's view moves with
   * `moveTo` once it commits) and, for the live checkpoint, announces it to other processes at
   * commit (`parked`: the batch parked an agent).
   */
  async save(client: PoolClient, position: bigint, parked = false): Promise<void> {
    await client.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE projection = $1', [
      this.name,
      position.toString(),
    ]);
    if (this.options.notify) await noticeProgress(client, this.name, position, parked);
  }

  /** This process's view moves to `position` (committed, re-read or reset); waiters at or before it resolve. */
  moveTo(position: bigint): void {
    this.current = position;
    const ready = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const waiter of ready) waiter.resolve();
    for (const listener of [...this.listeners]) listener();
  }

  /** Resolves once `position` is reached; rejects after `timeoutMs`, the message ending with `note()`. */
  waitFor(position: bigint, timeoutMs: number, note: () => string = () => ''): Promise<void> {
    if (this.current >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `projection ${this.name} did not reach ${position} in ${timeoutMs} ms (at ${this.current}${note()})`,
          ),
        );
      }, timeoutMs);
      this.waiters.push({ position, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}
