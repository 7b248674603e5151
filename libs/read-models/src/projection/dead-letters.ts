import type { Pool, PoolClient } from 'pg';
import type { StoredEvent } from '@app/event-store';
import type { DeadLetter } from './poison';

/** How an operator's skip or retry ended (projection_dead_letter_actions). */
export type DeadLetterOutcome = 'applied' | 'skipped' | 'failed';

/**
 * projection_dead_letters (migrations 0009, 0011): one row per poison position of a projection,
 * open (resolved_at null: its agent is parked) until a retry applies it or an operator skips it.
 */
export class DeadLetters {
  constructor(
    private readonly pool: Pool,
    private readonly projection: string,
  ) {}

  /** In the transaction that parks its agent: records (or counts one more attempt at) a poison event. */
  async record(client: PoolClient, event: StoredEvent, error: string): Promise<DeadLetter> {
    const { rows } = await client.query<{ attempts: number }>(
      `INSERT INTO projection_dead_letters (projection, position, event_id, stream_id, stream_revision, event_type, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (projection, position) DO UPDATE SET
         attempts = CASE WHEN projection_dead_letters.resolved_at IS NULL THEN projection_dead_letters.attempts + 1 ELSE 1 END,
         first_failed_at = CASE WHEN projection_dead_letters.resolved_at IS NULL THEN projection_dead_letters.first_failed_at ELSE now() END,
         last_failed_at = now(), error = EXCLUDED.error, resolved_at = NULL,
         resolution = NULL, resolved_by = NULL, resolution_reason = NULL
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

  /** True when an unresolved letter exists. */
  async anyOpen(): Promise<boolean> {
    const { rows } = await this.pool.query(
      'SELECT 1 FROM projection_dead_letters WHERE projection = $1 AND resolved_at IS NULL LIMIT 1',
      [this.projection],
    );
    return rows.length > 0;
  }

  /** In a resume's transaction: the open letter at `position`, locked, or null. */
  async lockOpen(client: PoolClient, position: bigint): Promise<{ stream: string; revision: bigint } | null> {
    const { rows } = await client.query<{ stream_id: string; stream_revision: string }>(
      `SELECT stream_id, stream_revision::text FROM projection_dead_letters
        WHERE projection = $1 AND position = $2 AND resolved_at IS NULL FOR UPDATE`,
      [this.projection, position.toString()],
    );
    return rows.length === 0 ? null : { stream: rows[0].stream_id, revision: BigInt(rows[0].stream_revision) };
  }

  /** In a resume's transaction: the letter is applied or skipped, by `actor`. */
  async resolve(
    client: PoolClient,
    position: bigint,
    resolution: 'applied' | 'skipped',
    actor: string,
    reason: string | null,
  ): Promise<void> {
    await client.query(
      `UPDATE projection_dead_letters SET resolved_at = now(), resolution = $3, resolved_by = $4, resolution_reason = $5
        WHERE projection = $1 AND position = $2`,
      [this.projection, position.toString(), resolution, actor, reason],
    );
  }

  /** The audit row of an operator's skip or retry (written whatever its outcome). */
  async audit(
    db: Pool | PoolClient,
    entry: {
      position: bigint;
      action: 'skip' | 'retry';
      actor: string;
      reason: string | null;
      outcome: DeadLetterOutcome;
      error?: string;
    },
  ): Promise<void> {
    await db.query(
      `INSERT INTO projection_dead_letter_actions (projection, position, action, actor, reason, outcome, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        this.projection,
        entry.position.toString(),
        entry.action,
        entry.actor,
        entry.reason,
        entry.outcome,
        entry.error ?? null,
      ],
    );
  }
}
