import type { Pool, PoolClient } from 'pg';
import type { StoredEvent } from '@app/event-store';
import { agentIdOfStream } from '@app/core';
import { CheckpointMoved } from './checkpoint';

/** An agent whose events a projection holds back (projection_parked_agents, migration 0011). */
export interface ParkedAgent {
  agent_id: string;
  stream: string;
  /** The dead letter that parked it: its events from `from_revision` on are held. */
  letter_position: bigint;
  from_revision: bigint;
}

/** Raised in a batch's transaction when an agent was parked or resumed elsewhere since the batch was prepared. */
export class ParkedAgentsChanged extends CheckpointMoved {}

/**
 * One projection's parked agents and skipped letters as the runner knows them. Both live in
 * Postgres and change only under the checkpoint row's lock: a batch compares its view with the
 * stored rows in its transaction (ParkedAgentsChanged when an admin resumed an agent meanwhile)
 * and parks in that transaction; a resume holds the same lock.
 */
export class ParkedAgents {
  private agents = new Map<string, ParkedAgent>();
  private skipped = new Set<bigint>();
  private skippedByAgent = new Map<string, Set<bigint>>();
  private stale = true;

  constructor(
    private readonly pool: Pool,
    private readonly projection: string,
  ) {}

  isParked(agentId: string): boolean {
    return this.agents.has(agentId);
  }

  /** A letter an operator skipped: the runner (a rebuild) passes it again without writing its rows. */
  isSkipped(position: bigint): boolean {
    return this.skipped.has(position);
  }

  /** The stream revisions of `agentId` whose letters were skipped (its fold leaves them out). */
  skippedOf(agentId: string): ReadonlySet<bigint> | undefined {
    return this.skippedByAgent.get(agentId);
  }

  get all(): ParkedAgent[] {
    return [...this.agents.values()];
  }

  /** Marks the view stale: the next batch reloads it (after CheckpointMoved, a rebuild or a resume). */
  invalidate(): void {
    this.stale = true;
  }

  /** Reloads the view when it may be stale. */
  async refresh(): Promise<void> {
    if (!this.stale) return;
    const [parked, skipped] = await Promise.all([this.read(this.pool), this.readSkipped(this.pool)]);
    this.agents = parked;
    this.skipped = new Set(skipped.map((s) => s.position));
    this.skippedByAgent = new Map();
    for (const { agentId, revision } of skipped) {
      if (agentId === null) continue;
      const revisions = this.skippedByAgent.get(agentId) ?? new Set<bigint>();
      revisions.add(revision);
      this.skippedByAgent.set(agentId, revisions);
    }
    this.stale = false;
  }

  /** In a batch's transaction, after the checkpoint lock: throws ParkedAgentsChanged unless the stored rows are this view. */
  async verify(client: PoolClient): Promise<void> {
    const stored = await this.read(client);
    const same =
      stored.size === this.agents.size &&
      [...stored.values()].every((a) => this.agents.get(a.agent_id)?.letter_position === a.letter_position);
    if (!same) {
      this.stale = true;
      throw new ParkedAgentsChanged(`parked agents of ${this.projection} changed since the batch was prepared`);
    }
  }

  /** In a batch's transaction: parks the agent of `event` from its revision (kept in the view once the batch commits). */
  async park(client: PoolClient, agentId: string, event: StoredEvent): Promise<ParkedAgent> {
    await client.query(
      `INSERT INTO projection_parked_agents (projection, agent_id, stream_id, letter_position, from_revision)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (projection, agent_id) DO UPDATE SET letter_position = EXCLUDED.letter_position,
         from_revision = EXCLUDED.from_revision, parked_at = now()`,
      [this.projection, agentId, event.stream, event.position.toString(), event.revision.toString()],
    );
    return { agent_id: agentId, stream: event.stream, letter_position: event.position, from_revision: event.revision };
  }

  /** The batch committed: its parked agents join the view. */
  keep(parked: ParkedAgent[]): void {
    for (const agent of parked) this.agents.set(agent.agent_id, agent);
  }

  private async read(db: Pool | PoolClient): Promise<Map<string, ParkedAgent>> {
    const { rows } = await db.query<{
      agent_id: string;
      stream_id: string;
      letter_position: string;
      from_revision: string;
    }>(
      `SELECT agent_id, stream_id, letter_position::text, from_revision::text
         FROM projection_parked_agents WHERE projection = $1`,
      [this.projection],
    );
    return new Map(
      rows.map((r) => [
        r.agent_id,
        {
          agent_id: r.agent_id,
          stream: r.stream_id,
          letter_position: BigInt(r.letter_position),
          from_revision: BigInt(r.from_revision),
        },
      ]),
    );
  }

  /** In a resume's transaction: the skipped revisions of one agent, as stored. */
  async skippedRevisions(client: PoolClient, agentId: string): Promise<Set<bigint>> {
    const all = await this.readSkipped(client);
    return new Set(all.filter((s) => s.agentId === agentId).map((s) => s.revision));
  }

  private async readSkipped(
    db: Pool | PoolClient,
  ): Promise<Array<{ position: bigint; agentId: string | null; revision: bigint }>> {
    const { rows } = await db.query<{ position: string; stream_id: string; stream_revision: string }>(
      `SELECT position::text, stream_id, stream_revision::text FROM projection_dead_letters
        WHERE projection = $1 AND resolution = 'skipped'`,
      [this.projection],
    );
    return rows.map((r) => ({
      position: BigInt(r.position),
      agentId: agentIdOfStream(r.stream_id),
      revision: BigInt(r.stream_revision),
    }));
  }
}
