import type { Pool, PoolClient } from 'pg';
import type { StoredEvent } from '@app/event-store';
import { agentIdOfStream } from '@app/core';
import type { AgentStates } from './agent-states';
import { type Checkpoint, CheckpointMoved } from './checkpoint';
import type { DeadLetters } from './dead-letters';
import type { Projector, RowWrite } from './projector';
import { RowWriter } from './row-writer';
import { withTransaction } from '../postgres/postgres-pool';
import { assertDecodable, type DeadLetter, describeError, isRowRefusal, ProjectionStalledError } from './poison';

/**
 * Called inside each batch's transaction, after its rows and checkpoint are written: whatever it
 * writes with `client` commits with the batch or not at all (the reliability suite's apply log).
 */
export type ApplyHook = (positions: bigint[], client: PoolClient) => Promise<void>;

type Writes = Array<RowWrite & { position: bigint }>;

interface Prepared {
  writes: Writes;
  /** The first event the fold or a projector could not read, and why. */
  poison: { index: number; error: unknown } | null;
}

export interface BatchApplierDeps<S> {
  pool: Pool;
  checkpoint: Checkpoint;
  states: AgentStates<S>;
  deadLetters: DeadLetters;
  projectors: Projector<S>[];
  isKnownType: (type: string) => boolean;
}

/**
 * One batch of events into read-model rows and the checkpoint, in one transaction (prepare = fold
 * + projectors, commit = rows + checkpoint + dead-letter resolution + apply hook), and what to do
 * with an event it cannot apply: a poison event is recorded as a dead letter and stops the batch
 * there (ProjectionStalledError), never skipped.
 */
export class BatchApplier<S> {
  /** Run inside every batch's transaction (see ApplyHook). */
  hook?: ApplyHook;
  private readonly writer: RowWriter;
  private stall: DeadLetter | null = null;
  private openLetters = true;

  constructor(private readonly deps: BatchApplierDeps<S>) {
    this.writer = new RowWriter(deps.projectors.flatMap((p) => p.tables));
  }

  /** The poison event the last batch stopped at, until a batch moves past it. */
  get stalled(): DeadLetter | null {
    return this.stall;
  }

  /** The tables the projectors write (a rebuild truncates them). */
  tableNames(): string[] {
    return this.writer.tableNames();
  }

  /** Learns whether dead letters are open (they are then resolved as batches pass them). */
  async open(): Promise<void> {
    this.openLetters = await this.deps.deadLetters.anyOpen();
  }

  /** After the read models were dropped: forgets the folded states and the stall. */
  async forget(): Promise<void> {
    this.deps.states.clear();
    this.stall = null;
    await this.open();
  }

  /**
   * Applies a batch in one transaction. A poison event in it: the events before it are applied,
   * then it is recorded and ProjectionStalledError thrown. Rows the database refuses: the batch is
   * applied again one event at a time, so the refusal lands on the event that causes it.
   */
  async apply(events: StoredEvent[]): Promise<void> {
    const { states } = this.deps;
    let prepared: Prepared;
    try {
      prepared = await this.prepare(events);
    } catch (error) {
      states.discard();
      throw error;
    }
    const { writes, poison } = prepared;
    const ready = poison ? events.slice(0, poison.index) : events;
    if (ready.length > 0) {
      try {
        await this.commit(ready, writes);
      } catch (error) {
        if (error instanceof CheckpointMoved) {
          // Another runner applied past this one: the states folded here are behind its rows.
          states.clear();
          throw error;
        }
        states.discard();
        if (!isRowRefusal(error)) throw error;
        if (events.length === 1) throw await this.deadLetter(events[0], error);
        for (const event of events) await this.apply([event]);
        return;
      }
    }
    if (poison) throw await this.deadLetter(events[poison.index], poison.error);
  }

  /** Folds and projects; IO failures (a cold agent's stream read) throw, decoding failures are returned. */
  private async prepare(events: StoredEvent[]): Promise<Prepared> {
    const { states, projectors, isKnownType } = this.deps;
    const writes: Writes = [];
    for (let index = 0; index < events.length; index++) {
      const event = events[index];
      const agentId = agentIdOfStream(event.stream);
      if (agentId === null) continue;
      const before = await states.before(agentId, event.revision);
      try {
        assertDecodable(event, isKnownType);
        const after = states.next(before, event);
        const projected = { ...event, agent_id: agentId };
        const rows: Writes = [];
        for (const projector of projectors) {
          for (const write of projector.project({ event: projected, before, after }))
            rows.push({ ...write, position: event.position });
        }
        states.stage(agentId, after, event.revision);
        writes.push(...rows);
      } catch (error) {
        return { writes, poison: { index, error } };
      }
    }
    return { writes, poison: null };
  }

  private async commit(events: StoredEvent[], writes: Writes): Promise<void> {
    const { pool, checkpoint, deadLetters, states } = this.deps;
    const last = events[events.length - 1].position;
    let stillOpen = this.openLetters;
    await withTransaction(pool, async (client) => {
      await checkpoint.lock(client);
      await this.writer.write(client, writes);
      await checkpoint.save(client, last);
      if (this.openLetters) stillOpen = await deadLetters.resolveUpTo(client, last);
      if (this.hook)
        await this.hook(
          events.map((e) => e.position),
          client,
        );
    });
    states.commit();
    this.openLetters = stillOpen;
    if (this.stall && last >= this.stall.position) this.stall = null;
    checkpoint.moveTo(last);
  }

  /** Records the poison event and returns the error that stops the runner there. */
  private async deadLetter(event: StoredEvent, cause: unknown): Promise<ProjectionStalledError> {
    const letter = await this.deps.deadLetters.record(event, describeError(cause));
    this.openLetters = true;
    this.stall = letter;
    return new ProjectionStalledError(letter);
  }
}
