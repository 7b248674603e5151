import type { Pool, PoolClient } from 'pg';
import type { StoredEvent } from '@app/event-store';
import { agentIdOfStream } from '@app/core';
import type { AgentStates } from './agent-states';
import { type Checkpoint, CheckpointMoved } from './checkpoint';
import type { DeadLetters } from './dead-letters';
import type { ParkedAgent, ParkedAgents } from './parked-agents';
import type { Projector, RowWrite } from './projector';
import { RowWriter } from './row-writer';
import { withTransaction } from '../postgres/postgres-pool';
import { assertDecodable, type DeadLetter, describeError, isRowRefusal } from './poison';

/**
 * Called inside each batch's transaction, after its rows and checkpoint are written: whatever it
 * writes with `client` commits with the batch or not at all (the reliability suite's apply log).
 * `positions` are every event the checkpoint moves over (held and parked ones included).
 */
export type ApplyHook = (positions: bigint[], client: PoolClient) => Promise<void>;

export type Writes = Array<RowWrite & { position: bigint }>;

interface Poison {
  event: StoredEvent;
  agentId: string;
  error: unknown;
}

interface Prepared {
  writes: Writes;
  /** Events the fold or a projector could not read: each parks its agent. */
  poison: Poison[];
}

export interface BatchApplierDeps<S> {
  pool: Pool;
  checkpoint: Checkpoint;
  states: AgentStates<S>;
  deadLetters: DeadLetters;
  parked: ParkedAgents;
  projectors: Projector<S>[];
  isKnownType: (type: string) => boolean;
  /** Told of every agent a batch parked (the runner logs it). */
  onParked?: (letter: DeadLetter) => void;
}

/**
 * One batch of events into read-model rows and the checkpoint, in one transaction (prepare = fold
 * + projectors, commit = rows + checkpoint + parked agents + apply hook). A poison event parks its
 * agent only (ADR 0015): it is recorded as a dead letter, the agent's later events are held (not
 * applied, not folded) until an operator retries or skips the letter, and the checkpoint moves on
 * for every other agent. An outage is not poison: the batch fails and is retried as it is.
 */
export class BatchApplier<S> {
  /** Run inside every batch's transaction (see ApplyHook). */
  hook?: ApplyHook;
  private readonly writer: RowWriter;
  private lastLetter: DeadLetter | null = null;

  constructor(private readonly deps: BatchApplierDeps<S>) {
    this.writer = new RowWriter(deps.projectors.flatMap((p) => p.tables));
  }

  /** The letter that parked an agent last in this process, while that agent stays parked. */
  get stalled(): DeadLetter | null {
    const letter = this.lastLetter;
    if (!letter) return null;
    const agentId = agentIdOfStream(letter.stream);
    return agentId !== null && this.deps.parked.isParked(agentId) ? letter : null;
  }

  /** The tables the projectors write (a rebuild truncates them). */
  tableNames(): string[] {
    return this.writer.tableNames();
  }

  /** Loads the parked agents and skipped letters. */
  async open(): Promise<void> {
    this.deps.parked.invalidate();
    await this.deps.parked.refresh();
  }

  /** Reloads the parked agents when another runner or a resume changed them (before the view of the checkpoint moves). */
  refreshParked(): Promise<void> {
    return this.deps.parked.refresh();
  }

  /** After the read models were dropped: forgets the folded states and the parked agents. */
  async forget(): Promise<void> {
    this.deps.states.clear();
    this.lastLetter = null;
    await this.open();
  }

  /**
   * Applies a batch in one transaction, parking the agent of each poison event in it. Rows the
   * database refuses: the batch is applied again one event at a time, so the refusal parks the
   * agent of the event that causes it.
   */
  async apply(events: StoredEvent[]): Promise<void> {
    const { states, parked } = this.deps;
    await parked.refresh();
    let prepared: Prepared;
    try {
      prepared = await this.prepare(events);
    } catch (error) {
      states.discard();
      throw error;
    }
    try {
      await this.commitChecked(events, prepared);
    } catch (error) {
      if (error instanceof CheckpointMoved || !isRowRefusal(error)) throw error;
      if (events.length > 1) {
        for (const event of events) await this.apply([event]);
        return;
      }
      const agentId = agentIdOfStream(events[0].stream);
      if (agentId === null) throw error;
      await this.commitChecked(events, { writes: [], poison: [{ event: events[0], agentId, error }] });
    }
  }

  /** Commits, or forgets what was staged; after another runner's move or a resume, the folded states and parked view too. */
  private async commitChecked(events: StoredEvent[], prepared: Prepared): Promise<void> {
    const { states, parked } = this.deps;
    try {
      await this.commit(events, prepared);
    } catch (error) {
      states.discard();
      if (error instanceof CheckpointMoved) {
        states.clear();
        parked.invalidate();
      }
      throw error;
    }
  }

  /** Folds and projects; IO failures (a cold agent's stream read) throw, decoding failures park the agent. */
  private async prepare(events: StoredEvent[]): Promise<Prepared> {
    const { states, parked } = this.deps;
    const writes: Writes = [];
    const poison: Poison[] = [];
    const parkedHere = new Set<string>();
    for (const event of events) {
      const agentId = agentIdOfStream(event.stream);
      if (agentId === null || parked.isParked(agentId) || parkedHere.has(agentId)) continue;
      const before = await states.before(agentId, event.revision, parked.skippedOf(agentId));
      if (parked.isSkipped(event.position)) {
        // An operator skipped it: no rows, and the fold leaves it out too (ADR 0015).
        states.stage(agentId, before, event.revision);
        continue;
      }
      try {
        const { after, rows } = this.project(event, agentId, before);
        states.stage(agentId, after, event.revision);
        writes.push(...rows);
      } catch (error) {
        poison.push({ event, agentId, error });
        parkedHere.add(agentId);
      }
    }
    return { writes, poison };
  }

  /** One event through the fold and the projectors (throws for a poison event; nothing staged). */
  project(event: StoredEvent, agentId: string, before: S): { after: S; rows: Writes } {
    const { states, projectors, isKnownType } = this.deps;
    assertDecodable(event, isKnownType);
    const after = states.next(before, event);
    const projected = { ...event, agent_id: agentId };
    const rows: Writes = [];
    for (const projector of projectors) {
      for (const write of projector.project({ event: projected, before, after }))
        rows.push({ ...write, position: event.position });
    }
    return { after, rows };
  }

  /** Writes rows with `client` (a resume writes the held events' rows with it). */
  write(client: PoolClient, writes: Writes): Promise<void> {
    return this.writer.write(client, writes);
  }

  private async commit(events: StoredEvent[], { writes, poison }: Prepared): Promise<void> {
    const { pool, checkpoint, deadLetters, parked, states } = this.deps;
    const last = events[events.length - 1].position;
    const letters: DeadLetter[] = [];
    const parkedNow: ParkedAgent[] = [];
    await withTransaction(pool, async (client) => {
      await checkpoint.lock(client);
      await parked.verify(client);
      await this.writer.write(client, writes);
      for (const { event, agentId, error } of poison) {
        letters.push(await deadLetters.record(client, event, describeError(error)));
        parkedNow.push(await parked.park(client, agentId, event));
      }
      await checkpoint.save(client, last, poison.length > 0);
      if (this.hook)
        await this.hook(
          events.map((e) => e.position),
          client,
        );
    });
    states.commit();
    parked.keep(parkedNow);
    checkpoint.moveTo(last);
    for (const letter of letters) {
      this.lastLetter = letter;
      this.deps.onParked?.(letter);
    }
  }
}
