import type { Pool, PoolClient } from 'pg';
import type { StoredEvent } from '@app/event-store';
import type { DeadLetter } from './poison';

/** projection_dead_letters (migration 0009): one row per poison position of a projection. */
export class DeadLetters {
  constructor(
    private readonly pool: Pool,
    private readonly projection: string,
  ) {}

  /** Records (or counts one more attempt at) the position the runner cannot apply. */
  async record(event: StoredEvent, error: string): Promise<DeadLetter> {
    const { rows } = await this.pool.query<{ attempts: number }>(
      `INSERT INTO projection_dead_letters (projection, position, event_id, stream_id, stream_revision, event_type, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (projection, position) DO UPDATE SET
         attempts = CASE WHEN projection_dead_letters.resolved_at IS NULL THEN projection_dead_letters.attempts + 1 ELSE 1 END,
         first_failed_at = CASE WHEN projection_dead_letters.resolved_at IS NULL THEN projection_dead_letters.first_failed_at ELSE now() END,
         last_failed_at = now(), error = EXCLUDED.error, resolved_at = NULL
       RETURNING attempts`,
      [
        this.projection,
        event.position.toString(),
        event.id,
        event.stream,
        event.revision.toString(),
        event.type,
        error,
      ],
    );
    return {
      projection: this.projection,
      position: event.position,
      event_id: event.id,
      stream: event.stream,
      revision: event.revision,
      type: event.type,
      error,
      attempts: rows[0].attempts,
    };
  }

  /** True when an unresolved letter exists (the runner then resolves letters as it passes them). */
  async anyOpen(): Promise<boolean> {
    const { rows } = await this.pool.query(
      'SELECT 1 FROM projection_dead_letters WHERE projection = $1 AND resolved_at IS NULL LIMIT 1',
      [this.projection],
    );
    return rows.length > 0;
  }

  /** In the batch's transaction: letters at or before `position` are behind the runner now. Returns whether any stays open. */
  async resolveUpTo(client: PoolClient, position: bigint): Promise<boolean> {
    await client.query(
      'UPDATE projection_dead_letters SET resolved_at = now() WHERE projection = $1 AND resolved_at IS NULL AND position <= $2',
      [this.projection, position.toString()],
    );
    const { rows } = await client.query(
      'SELECT 1 FROM projection_dead_letters WHERE projection = $1 AND resolved_at IS NULL LIMIT 1',
      [this.projection],
    );
    return rows.length > 0;
  }
}
