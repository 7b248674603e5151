import { ApiError } from '@app/core';
import { type DeadLetterAction, type DeadLetterResolution, DeadLetterStateError } from '@app/read-models';
import type { SqlReader } from './projections-admin';

/** What a skip or retry needs of a projection runner (`ProjectionRunner` of libs/read-models). */
export interface ResolvingProjection {
  readonly name: string;
  resolve(
    position: bigint,
    action: DeadLetterAction,
    actor: string,
    reason: string | null,
  ): Promise<DeadLetterResolution>;
}

export interface DeadLetterView {
  position: string;
  event_id: string;
  stream: string;
  revision: string;
  type: string;
  error: string;
  attempts: number;
  since: string;
  last_attempt_at: string;
  /** `open` (its agent is parked), `applied` (a retry, or a runner that read it) or `skipped`. */
  state: 'open' | 'applied' | 'skipped';
  resolved_at: string | null;
  resolved_by: string | null;
  reason: string | null;
  /** Every skip and retry asked for it, oldest first (the audit). */
  actions: Array<{
    action: string;
    actor: string;
    reason: string | null;
    outcome: string;
    error: string | null;
    at: string;
  }>;
}

export interface ParkedAgentView {
  agent_id: string;
  stream: string;
  /** The open letter it waits on; its events from `from_revision` on are held. */
  letter_position: string;
  from_revision: string;
  parked_at: string;
}

export interface DeadLettersReport {
  projection: string;
  letters: DeadLetterView[];
  parked_agents: ParkedAgentView[];
}

const TIME = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const MAX_REASON = 500;

/** Dead letters and parked agents of a projection, and the operator's skip and retry (ADR 0015). */
export class DeadLettersAdmin {
  constructor(
    private readonly sql: SqlReader,
    private readonly runner: (projection: string) => ResolvingProjection | null,
  ) {}

  async list(projection: string): Promise<DeadLettersReport> {
    this.known(projection);
    return deadLettersOf(this.sql, projection);
  }

  /** Skips the open letter at `position` (its rows are never written) and applies its agent's held events. */
  skip(projection: string, position: string, actor: string, reason: unknown): Promise<DeadLetterResolution> {
    if (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_REASON)
      throw new ApiError('validation_failed', `reason: a skip needs a reason of 1 to ${MAX_REASON} characters`, {
        field: 'reason',
      });
    return this.resolve(projection, position, 'skip', actor, reason.trim());
  }

  /** Applies the open letter at `position` again, then its agent's held events (it stays parked if it fails again). */
  retry(projection: string, position: string, actor: string, reason: unknown): Promise<DeadLetterResolution> {
    if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > MAX_REASON))
      throw new ApiError('validation_failed', `reason: at most ${MAX_REASON} characters`, { field: 'reason' });
    return this.resolve(
      projection,
      position,
      'retry',
      actor,
      typeof reason === 'string' ? reason.trim() || null : null,
    );
  }

  private async resolve(
    projection: string,
    position: string,
    action: DeadLetterAction,
    actor: string,
    reason: string | null,
  ): Promise<DeadLetterResolution> {
    const runner = this.known(projection);
    if (!/^\d{1,19}$/.test(position))
      throw new ApiError('validation_failed', 'position: a global event position (digits)', { field: 'position' });
    try {
      return await runner.resolve(BigInt(position), action, actor, reason);
    } catch (error) {
      if (!(error instanceof DeadLetterStateError)) throw error;
      if (error.reason === 'not_found') throw new ApiError('not_found', error.message, { projection, position });
      const reason = error.reason === 'resolved' ? 'dead_letter_resolved' : 'dead_letter_not_reached';
      throw new ApiError('conflict', error.message, { reason, projection, position });
    }
  }

  private known(projection: string): ResolvingProjection {
    const runner = this.runner(projection);
    if (!runner) throw new ApiError('not_found', `no projection named ${projection}`, { projection });
    return runner;
  }
}

/** Every dead letter of `projection` (with its audit) and its parked agents, read from the database. */
export async function deadLettersOf(sql: SqlReader, projection: string): Promise<DeadLettersReport> {
  const [letters, actions, parked] = await Promise.all([
    sql.query(
      `SELECT position::text AS position, event_id, stream_id, stream_revision::text AS revision, event_type, error, attempts,
         ${TIME('first_failed_at')} AS since, ${TIME('last_failed_at')} AS last_attempt_at,
         ${TIME('resolved_at')} AS resolved_at, resolution, resolved_by, resolution_reason
       FROM projection_dead_letters WHERE projection = $1 ORDER BY position`,
      [projection],
    ),
    sql.query(
      `SELECT position::text AS position, action, actor, reason, outcome, error, ${TIME('at')} AS at
       FROM projection_dead_letter_actions WHERE projection = $1 ORDER BY id`,
      [projection],
    ),
    sql.query(
      `SELECT agent_id, stream_id, letter_position::text AS letter_position, from_revision::text AS from_revision,
         ${TIME('parked_at')} AS parked_at
       FROM projection_parked_agents WHERE projection = $1 ORDER BY letter_position`,
      [projection],
    ),
  ]);
  const byLetter = new Map<string, DeadLetterView['actions']>();
  for (const row of actions.rows) {
    const list = byLetter.get(String(row.position)) ?? [];
    list.push({
      action: String(row.action),
      actor: String(row.actor),
      reason: (row.reason as string | null) ?? null,
      outcome: String(row.outcome),
      error: (row.error as string | null) ?? null,
      at: String(row.at),
    });
    byLetter.set(String(row.position), list);
  }
  return {
    projection,
    letters: letters.rows.map((row) => ({
      position: String(row.position),
      event_id: String(row.event_id),
      stream: String(row.stream_id),
      revision: String(row.revision),
      type: String(row.event_type),
      error: String(row.error),
      attempts: Number(row.attempts),
      since: String(row.since),
      last_attempt_at: String(row.last_attempt_at),
      state: row.resolved_at === null ? 'open' : row.resolution === 'skipped' ? 'skipped' : 'applied',
      resolved_at: (row.resolved_at as string | null) ?? null,
      resolved_by: (row.resolved_by as string | null) ?? null,
      reason: (row.resolution_reason as string | null) ?? null,
      actions: byLetter.get(String(row.position)) ?? [],
    })),
    parked_agents: parked.rows.map((row) => ({
      agent_id: String(row.agent_id),
      stream: String(row.stream_id),
      letter_position: String(row.letter_position),
      from_revision: String(row.from_revision),
      parked_at: String(row.parked_at),
    })),
  };
}
