import type { Pool, PoolClient } from 'pg';
import type { EventStore, StoredEvent, Subscription } from '@app/event-store';
import { type AgentDecider, type DomainEvent, type SnapshotStore, agentIdOfStream } from '@app/core';
import { AgentStates } from './agent-states';
import type { Projector, RowWrite } from './projector';
import { RowWriter } from './row-writer';
import { Batches } from './batches';
import { withTransaction } from '../postgres/postgres-pool';
import { DeadLetters } from './dead-letters';
import { assertDecodable, type DeadLetter, describeError, isKnownAgentEventType, isRowRefusal, ProjectionStalledError } from './poison';

/**
 * Called inside each batch's transaction, after its rows and checkpoint are written: whatever it
 * writes with `client` commits with the batch or not at all (the reliability suite's apply log).
 */
export type ApplyHook = (positions: bigint[], client: PoolClient) => Promise<void>;

export interface ProjectionRunnerOptions {
  /** Checkpoint name; one runner applies all the read models of one group together. */
  name?: string;
  batchSize?: number;
  onError?: (error: unknown) => void;
  onApplied?: ApplyHook;
  /** Event types the fold knows (default: the agent domain's); any other type is a poison event. */
  isKnownEventType?: (type: string) => boolean;
  /** Delay before the first retry of a stalled position, doubled per attempt up to `max` (default 1 s .. 5 min). */
  stallRetryMs?: { first: number; max: number };
  /** Agent snapshots: a cold agent state is folded from its snapshot instead of from revision 0. */
  snapshots?: Pick<SnapshotStore, 'load'>;
}

/** Raised when another instance advanced the checkpoint: this one re-reads from it. */
class CheckpointMoved extends Error {}

interface Prepared {
  writes: Array<RowWrite & { position: bigint }>;
  /** The first event the fold or a projector could not read, and why. */
  poison: { index: number; error: unknown } | null;
}

/**
 * Consumes the store in global order and writes read models. Rows and checkpoint commit in
 * one transaction; the checkpoint row is locked and compared first, so two runners on one
 * projection never apply an event twice (one applies, the other resynchronises).
 *
 * A poison event (unknown type, data the fold or a projector cannot read, rows the database
 * refuses) is never skipped: the events before it are applied, it is recorded in
 * projection_dead_letters, and the runner stays "stalled at" its position, retrying with a
 * doubling delay (a fixed deployment or a rebuild moves on and resolves the letter).
 */
export class ProjectionRunner<S> {
  readonly name: string;
  private readonly writer: RowWriter;
  private readonly states: AgentStates<S>;
  private readonly batchSize: number;
  private readonly deadLetters: DeadLetters;
  private readonly isKnownType: (type: string) => boolean;
  private position = -1n;
  private subscription?: Subscription;
  private loop?: Promise<void>;
  private stopped = true;
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];
  private stall: DeadLetter | null = null;
  private openLetters = true;
  private sleeping: { timer: NodeJS.Timeout; resolve: () => void } | null = null;
  private applyHook?: ApplyHook;

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
    this.states = new AgentStates(store, decider, undefined, options.snapshots);
    this.deadLetters = new DeadLetters(pool, this.name);
    this.isKnownType = options.isKnownEventType ?? isKnownAgentEventType;
    this.applyHook = options.onApplied;
  }

  /** Starts consuming in the background from the stored checkpoint. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.position = await this.readCheckpoint();
    this.openLetters = await this.deadLetters.anyOpen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.subscription?.stop();
    await this.loop;
    this.loop = undefined;
  }

  /** The position of the last event applied (-1 when none). */
  get checkpoint(): bigint {
    return this.position;
  }

  /** The poison event this runner is stopped at, or null while it moves. */
  get stalled(): DeadLetter | null {
    return this.stall;
  }

  /** Installs (or removes) the hook run inside every batch's transaction (see ApplyHook). */
  setApplyHook(hook: ApplyHook | undefined): void {
    this.applyHook = hook;
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
      const timer = setTimeout(() => {
        const stall = this.stall ? `; stalled at ${this.stall.position}: ${this.stall.error}` : '';
        reject(new Error(`projection ${this.name} did not reach ${position} in ${timeoutMs} ms (at ${this.position}${stall})`));
      }, timeoutMs);
      this.waiters.push({ position, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /**
   * Drops every read model of this runner and replays from position 0; returns the event count.
   * A poison event ends it with ProjectionStalledError (the models then stop just before it,
   * and a runner that was running resumes, stalled there).
   */
  async rebuild(onProgress?: (applied: number) => void, options: { upTo?: bigint } = {}): Promise<number> {
    const wasRunning = !this.stopped;
    await this.stop();
    try {
      await this.reset();
      // Everything committed before the rebuild started; what readAll shows may lag behind it
      // while an older transaction is still open, so read until the head itself is applied.
      // `upTo` stops at a position instead (a copy compared with live models at their checkpoint).
      const head = options.upTo ?? (await this.store.headPosition()) ?? -1n;
      let applied = 0;
      while (this.position < head) {
        const page = await this.store.readAll({ after_position: this.position < 0n ? undefined : this.position, max_count: this.batchSize });
        const events = page.filter((event) => event.position <= head);
        if (events.length === 0) {
          if (page.length > 0) break;
          await delay(20);
          continue;
        }
        await this.apply(events);
        applied += events.length;
        onProgress?.(applied);
      }
      return applied;
    } finally {
      if (wasRunning) await this.start();
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      this.subscription = this.store.subscribeToAll({ after_position: this.position < 0n ? undefined : this.position, batch_size: this.batchSize });
      try {
        const batches = new Batches(this.subscription[Symbol.asyncIterator](), this.batchSize);
        for (let batch = await batches.next(); batch && !this.stopped; batch = await batches.next()) {
          await this.apply(batch);
          failures = 0;
        }
      } catch (error) {
        if (this.stopped) break;
        await this.subscription.stop().catch(() => undefined);
        this.advance(await this.readCheckpoint().catch(() => this.position));
        if (error instanceof CheckpointMoved) {
          await this.sleep(10);
        } else if (error instanceof ProjectionStalledError) {
          this.options.onError?.(error);
          const { first, max } = this.options.stallRetryMs ?? { first: 1_000, max: 300_000 };
          await this.sleep(Math.min(max, first * 2 ** Math.min(20, error.letter.attempts - 1)));
        } else {
          this.options.onError?.(error);
          await this.sleep(Math.min(5_000, 250 * 2 ** Math.min(5, failures++)));
        }
      }
    }
  }

  /**
   * Applies a batch in one transaction. A poison event in it: the events before it are applied,
   * then it is recorded and ProjectionStalledError thrown. Rows the database refuses: the batch is
   * applied again one event at a time, so the refusal lands on the event that causes it.
   */
  private async apply(events: StoredEvent[]): Promise<void> {
    let prepared: Prepared;
    try {
      prepared = await this.prepare(events);
    } catch (error) {
      this.states.discard();
      throw error;
    }
    const { writes, poison } = prepared;
    const ready = poison ? events.slice(0, poison.index) : events;
    if (ready.length > 0) {
      try {
        await this.commit(ready, writes);
      } catch (error) {
        this.states.discard();
        if (error instanceof CheckpointMoved || !isRowRefusal(error)) throw error;
        if (events.length === 1) throw await this.deadLetter(events[0], error);
        for (const event of events) await this.apply([event]);
        return;
      }
    }
    if (poison) throw await this.deadLetter(events[poison.index], poison.error);
  }

  /** Folds and projects; IO failures (a cold agent's stream read) throw, decoding failures are returned. */
  private async prepare(events: StoredEvent[]): Promise<Prepared> {
    const writes: Prepared['writes'] = [];
    for (let index = 0; index < events.length; index++) {
      const event = events[index];
      const agentId = agentIdOfStream(event.stream);
      if (agentId === null) continue;
      const before = await this.states.before(agentId, event.revision);
      try {
        assertDecodable(event, this.isKnownType);
        const after = this.states.next(before, event);
        const projected = { ...event, agent_id: agentId };
        const rows: Prepared['writes'] = [];
        for (const projector of this.projectors) {
          for (const write of projector.project({ event: projected, before, after })) rows.push({ ...write, position: event.position });
        }
        this.states.stage(agentId, after, event.revision);
        writes.push(...rows);
      } catch (error) {
        return { writes, poison: { index, error } };
      }
    }
    return { writes, poison: null };
  }

  private async commit(events: StoredEvent[], writes: Prepared['writes']): Promise<void> {
    const last = events[events.length - 1].position;
    let stillOpen = this.openLetters;
    await this.transaction(async (client) => {
      await this.lockCheckpoint(client);
      await this.writer.write(client, writes);
      await client.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE projection = $1', [this.name, last.toString()]);
      if (this.openLetters) stillOpen = await this.deadLetters.resolveUpTo(client, last);
      if (this.applyHook) await this.applyHook(events.map((e) => e.position), client);
    });
    this.states.commit();
    this.openLetters = stillOpen;
    if (this.stall && last >= this.stall.position) this.stall = null;
    this.advance(last);
  }

  /** Records the poison event and returns the error that stops the runner there. */
  private async deadLetter(event: StoredEvent, cause: unknown): Promise<ProjectionStalledError> {
    const letter = await this.deadLetters.record(event, describeError(cause));
    this.openLetters = true;
    this.stall = letter;
    return new ProjectionStalledError(letter);
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
      // An upsert: a deployment whose projector never ran has no checkpoint row yet, and without
      // one every batch after the first would look like another runner's move.
      await client.query(
        `INSERT INTO projection_checkpoints (projection, position) VALUES ($1, -1)
         ON CONFLICT (projection) DO UPDATE SET position = -1, updated_at = now()`,
        [this.name],
      );
    });
    this.states.clear();
    this.position = -1n;
    this.stall = null;
    this.openLetters = await this.deadLetters.anyOpen();
  }

  private transaction(body: (client: PoolClient) => Promise<void>): Promise<void> {
    return withTransaction(this.pool, body);
  }

  private advance(position: bigint): void {
    this.position = position;
    const ready = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const waiter of ready) waiter.resolve();
  }

  /** A pause that stop() cuts short (a stalled runner may wait minutes between attempts). */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeping = null;
        resolve();
      }, ms);
      this.sleeping = { timer, resolve };
    });
  }

  private wake(): void {
    const sleeping = this.sleeping;
    this.sleeping = null;
    if (sleeping) {
      clearTimeout(sleeping.timer);
      sleeping.resolve();
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
