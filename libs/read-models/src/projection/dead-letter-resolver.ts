import type { Pool, PoolClient } from 'pg';
import type { EventStore, StoredEvent } from '@app/event-store';
import { agentIdOfStream } from '@app/core';
import type { AgentStates } from './agent-states';
import type { BatchApplier } from './batch-applier';
import type { DeadLetters, DeadLetterOutcome } from './dead-letters';
import type { ParkedAgents } from './parked-agents';
import { describeError, isRowRefusal } from './poison';
import { withTransaction } from '../postgres/postgres-pool';
import { noticeProgress } from './progress-notice';

export type DeadLetterAction = 'skip' | 'retry';

/** What a skip or retry did (the audit row holds the same). */
export interface DeadLetterResolution {
  projection: string;
  position: string;
  action: DeadLetterAction;
  outcome: DeadLetterOutcome;
  actor: string;
  reason: string | null;
  /** The agent's held events applied after the letter. */
  held_applied: number;
  /** Where the agent stays parked (the same letter after a failed retry, a later held event's letter), or null. */
  parked_at: { position: string; error: string } | null;
}

/** The letter is not there, not open (already applied or skipped), or not reached yet (recorded by an older runner). */
export class DeadLetterStateError extends Error {
  constructor(
    readonly reason: 'not_found' | 'resolved' | 'not_reached',
    message: string,
  ) {
    super(message);
    this.name = 'DeadLetterStateError';
  }
}

/**
 * An operator's skip or retry of a dead letter (ADR 0015), in one transaction that holds the
 * projection's checkpoint row (so no batch of any runner commits meanwhile; a runner that
 * prepared one sees the parked agents changed and prepares again). The agent's stream is read
 * from the letter's revision up to the checkpoint: the letter (applied, or skipped: its rows
 * never written and the read models' fold leaving it out), then the held events in
 * order. A held event that fails parks the agent again at it; a retry whose letter fails again
 * leaves it parked and counts the attempt. Every call writes its audit row.
 */
export class DeadLetterResolver<S> {
  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly projection: string,
    private readonly deps: {
      applier: BatchApplier<S>;
      states: AgentStates<S>;
      deadLetters: DeadLetters;
      parked: ParkedAgents;
    },
  ) {}

  async resolve(
    position: bigint,
    action: DeadLetterAction,
    actor: string,
    reason: string | null,
  ): Promise<DeadLetterResolution> {
    const { deadLetters, parked, states } = this.deps;
    const result = await withTransaction(this.pool, async (client) => {
      const checkpoint = await this.lockCheckpoint(client);
      const letter = await deadLetters.lockOpen(client, position);
      if (!letter) throw await this.notOpen(client, position);
      if (position > checkpoint)
        throw new DeadLetterStateError(
          'not_reached',
          `the projection ${this.projection} is at ${checkpoint}, before the dead letter at ${position}: it parks its agent when it reaches it`,
        );
      const agentId = agentIdOfStream(letter.stream);
      const events = (await this.store.readStream(letter.stream, { from_revision: letter.revision })).filter(
        (event) => event.position <= checkpoint,
      );
      states.clear();
      const applied = await this.replay(client, agentId!, events, action);
      const base = { projection: this.projection, position: position.toString(), action, actor, reason };
      if (applied.failed && applied.count === 0 && action === 'retry') {
        const again = await deadLetters.record(client, events[0], describeError(applied.failed.error));
        const entry = { ...base, outcome: 'failed' as const, held_applied: 0 };
        await deadLetters.audit(client, { ...entry, position, error: again.error });
        return { ...entry, parked_at: { position: position.toString(), error: again.error } };
      }
      const outcome = action === 'skip' ? ('skipped' as const) : ('applied' as const);
      await deadLetters.resolve(client, position, outcome, actor, reason);
      let parkedAt: DeadLetterResolution['parked_at'] = null;
      if (applied.failed) {
        const next = await deadLetters.record(client, applied.failed.event, describeError(applied.failed.error));
        await parked.park(client, agentId!, applied.failed.event);
        parkedAt = { position: next.position.toString(), error: next.error };
      } else {
        await client.query('DELETE FROM projection_parked_agents WHERE projection = $1 AND agent_id = $2', [
          this.projection,
          agentId,
        ]);
      }
      await noticeProgress(client, this.projection, checkpoint, true);
      const held = Math.max(0, applied.count - (action === 'retry' ? 1 : 0));
      await deadLetters.audit(client, { ...base, position, outcome, error: parkedAt?.error });
      return { ...base, outcome, held_applied: held, parked_at: parkedAt };
    });
    states.clear();
    parked.invalidate();
    // This process's view follows at once (a runner elsewhere finds out at its next batch).
    await parked.refresh().catch(() => undefined);
    return result;
  }

  /**
   * Applies `events` (the letter first) in order from the agent's state before the letter; a
   * skip passes the letter. Stops at the first event that fails (its rows rolled back to a savepoint).
   */
  private async replay(
    client: PoolClient,
    agentId: string,
    events: StoredEvent[],
    action: DeadLetterAction,
  ): Promise<{ count: number; failed: { event: StoredEvent; error: unknown } | null }> {
    const { applier, states, parked } = this.deps;
    if (events.length === 0) return { count: 0, failed: null };
    const skipped = await parked.skippedRevisions(client, agentId);
    let state: S = await states.before(agentId, events[0].revision, skipped);
    let count = 0;
    for (const [index, event] of events.entries()) {
      // A skipped letter writes no rows and the fold leaves it out (the rows of the held events
      // must not carry what the database refused, e.g. an impossible date in next_due_at).
      if (index === 0 && action === 'skip') continue;
      let projected: { after: S; rows: Parameters<BatchApplier<S>['write']>[1] };
      try {
        projected = applier.project(event, agentId, state);
      } catch (error) {
        return { count, failed: { event, error } };
      }
      await client.query('SAVEPOINT held_event');
      try {
        await applier.write(client, projected.rows);
      } catch (error) {
        await client.query('ROLLBACK TO SAVEPOINT held_event');
        if (!isRowRefusal(error)) throw error;
        return { count, failed: { event, error } };
      }
      await client.query('RELEASE SAVEPOINT held_event');
      state = projected.after;
      count++;
    }
    return { count, failed: null };
  }

  private async lockCheckpoint(client: PoolClient): Promise<bigint> {
    const { rows } = await client.query<{ position: string }>(
      'SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1 FOR UPDATE',
      [this.projection],
    );
    return rows.length === 0 ? -1n : BigInt(rows[0].position);
  }

  private async notOpen(client: PoolClient, position: bigint): Promise<DeadLetterStateError> {
    const { rows } = await client.query<{ resolution: string | null }>(
      'SELECT resolution FROM projection_dead_letters WHERE projection = $1 AND position = $2',
      [this.projection, position.toString()],
    );
    if (rows.length === 0)
      return new DeadLetterStateError('not_found', `no dead letter of ${this.projection} at position ${position}`);
    return new DeadLetterStateError(
      'resolved',
      `the dead letter of ${this.projection} at position ${position} is already resolved (${rows[0].resolution ?? 'applied'})`,
    );
  }
}
