import type { Pool, PoolClient } from 'pg';
import type { EventStore, StoredEvent, Subscription } from '@app/event-store';
import type { AgentDecider, DomainEvent } from '@app/application/agents/agent-decider';
import { agentIdOfStream } from '@app/application/agents/agent-stream';
import { AgentStates } from './agent-states';
import type { Projector, RowWrite } from './projector';
import { RowWriter } from './row-writer';
import { Batches } from './batches';

export interface ProjectionRunnerOptions {
  /** Checkpoint name; one runner applies all the read models of one group together. */
  name?: string;
  batchSize?: number;
  onError?: (error: unknown) => void;
}

/** Raised when another instance advanced the checkpoint: this one re-reads from it. */
class CheckpointMoved extends Error {}

/**
 * Consumes the store in global order and writes read models. Rows and checkpoint commit in
 * one transaction; the checkpoint row is locked and compared first, so two runners on one
 * projection never apply an event twice (one applies, the other resynchronises).
 */
export class ProjectionRunner<S> {
  readonly name: string;
  private readonly writer: RowWriter;
  private readonly states: AgentStates<S>;
  private readonly batchSize: number;
  private position = -1n;
  private subscription?: Subscription;
  private loop?: Promise<void>;
  private stopped = true;
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];

  constructor(
    private readonly pool: Pool,
    private readonly store: EventStore,
    decider: AgentDecider<S, DomainEvent>,
    private readonly projectors: Projector<S>[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.name = options.name ?? 'read_models';
    this.batchSize = options.batchSize ?? 500;
    this.writer = new RowWriter(projectors.flatMap((p) => p.tables));
    this.states = new AgentStates(store, decider);
  }

  /** Starts consuming in the background from the stored checkpoint. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.position = await this.readCheckpoint();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    await this.loop;
    this.loop = undefined;
  }

  /** The position of the last event applied (-1 when none). */
  get checkpoint(): bigint {
    return this.position;
  }

  /** Events committed but not applied yet, as a position distance (null when unknown). */
  async lag(): Promise<{ checkpoint: bigint; head: bigint | null; behind: bigint | null }> {
    const head = await this.store.headPosition();
    return { checkpoint: this.position, head, behind: head === null ? null : head > this.position ? head - this.position : 0n };
  }

  /** Resolves once every event up to `position` is applied (read-your-writes for tests). */
  waitFor(position: bigint, timeoutMs = 10_000): Promise<void> {
    if (this.position >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`projection ${this.name} did not reach ${position} in ${timeoutMs} ms (at ${this.position})`)), timeoutMs);
      this.waiters.push({ position, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Drops every read model of this runner and replays from position 0; returns the event count. */
  async rebuild(onProgress?: (applied: number) => void): Promise<number> {
    const wasRunning = !this.stopped;
    await this.stop();
    await this.reset();
    // Everything committed before the rebuild started; what readAll shows may lag behind it
    // while an older transaction is still open, so read until the head itself is applied.
    const head = (await this.store.headPosition()) ?? -1n;
    let applied = 0;
    while (this.position < head) {
      const events = await this.store.readAll({ after_position: this.position < 0n ? undefined : this.position, max_count: this.batchSize });
      if (events.length === 0) {
        await delay(20);
        continue;
      }
      await this.apply(events);
      applied += events.length;
      onProgress?.(applied);
    }
    if (wasRunning) await this.start();
    return applied;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.subscription = this.store.subscribeToAll({ after_position: this.position < 0n ? undefined : this.position, batch_size: this.batchSize });
      try {
        const batches = new Batches(this.subscription[Symbol.asyncIterator](), this.batchSize);
        for (let batch = await batches.next(); batch && !this.stopped; batch = await batches.next()) {
          await this.apply(batch);
        }
      } catch (error) {
        if (this.stopped) break;
        if (!(error instanceof CheckpointMoved)) this.options.onError?.(error);
        await this.subscription.stop().catch(() => undefined);
        this.advance(await this.readCheckpoint().catch(() => this.position));
        await delay(error instanceof CheckpointMoved ? 10 : 500);
      }
    }
  }

  private async apply(events: StoredEvent[]): Promise<void> {
    const writes: Array<RowWrite & { position: bigint }> = [];
    try {
      for (const event of events) {
        const agentId = agentIdOfStream(event.stream);
        if (agentId === null) continue;
        const before = await this.states.before(agentId, event.revision);
        const after = this.states.apply(agentId, before, event);
        const projected = { ...event, agent_id: agentId };
        for (const projector of this.projectors) {
          for (const write of projector.project({ event: projected, before, after })) writes.push({ ...write, position: event.position });
        }
      }
      const last = events[events.length - 1].position;
      await this.transaction(async (client) => {
        await this.lockCheckpoint(client);
        await this.writer.write(client, writes);
        await client.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE projection = $1', [this.name, last.toString()]);
      });
      this.states.commit();
      this.advance(last);
    } catch (error) {
      this.states.discard();
      throw error;
    }
  }

  private async lockCheckpoint(client: PoolClient): Promise<void> {
    const { rows } = await client.query('SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1 FOR UPDATE', [this.name]);
    const stored = rows.length ? BigInt(rows[0].position) : -1n;
    if (stored !== this.position) {
      this.states.clear();
      throw new CheckpointMoved(`checkpoint ${this.name} is at ${stored}, this runner at ${this.position}`);
    }
  }

  private async readCheckpoint(): Promise<bigint> {
    await this.pool.query('INSERT INTO projection_checkpoints (projection, position) VALUES ($1, -1) ON CONFLICT DO NOTHING', [this.name]);
    const { rows } = await this.pool.query('SELECT position::text AS position FROM projection_checkpoints WHERE projection = $1', [this.name]);
    return BigInt(rows[0].position);
  }

  private async reset(): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(`TRUNCATE ${this.writer.tableNames().join(', ')}`);
      await client.query('UPDATE projection_checkpoints SET position = -1, updated_at = now() WHERE projection = $1', [this.name]);
    });
    this.states.clear();
    this.position = -1n;
  }

  private async transaction(body: (client: PoolClient) => Promise<void>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await body(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private advance(position: bigint): void {
    this.position = position;
    const ready = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const waiter of ready) waiter.resolve();
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
