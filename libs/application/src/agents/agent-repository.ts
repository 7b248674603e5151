import { randomUUID } from 'node:crypto';
import { EventStore, StoredEvent, WrongExpectedRevisionError } from '@app/event-store';
import {
  AgentDecider,
  AgentFold,
  agentStream,
  currentSchemaVersion,
  DomainEvent,
  SnapshotStore,
  toDomainEvent,
} from '@app/core';
import { IdempotencyWindow } from './idempotency-window';

/** An agent as the repository holds it between commands: its state, revision and idempotency window. */
export interface LoadedAgent<S> {
  state: S;
  /** Revision of the last event folded in, or null for a stream that does not exist. */
  revision: bigint | null;
  commands: IdempotencyWindow;
  /** Events folded since the last snapshot was taken. */
  sinceSnapshot: number;
}

export interface TransactRequest {
  agentId: string;
  /** Idempotency key: a repeat returns the first result and appends nothing. */
  commandId: string;
  /** The caller's optimistic check on the agent stream revision (409 on mismatch). */
  expectedRevision?: bigint;
  actor: string;
  correlationId?: string;
  causationId?: string;
}

export interface TransactResult<S, E extends DomainEvent> {
  before: S;
  after: S;
  events: E[];
  /** Stream revision after the write (or the current one when nothing was written). */
  revision: bigint | null;
  /** True when the command id had already been applied: the first result is returned. */
  repeated: boolean;
  /** Global position of the last event written (null when nothing was written now). */
  position: bigint | null;
}

export interface AgentRepositoryOptions {
  maxRetries?: number;
  snapshotEvery?: number;
  cacheSize?: number;
  onSnapshotError?: (error: unknown) => void;
}

/**
 * Loads an agent (cache or snapshot + tail: the one fold of libs/core), runs the decider, and
 * appends with the expected revision, retrying a bounded number of times when another writer
 * got there first.
 */
export class AgentRepository<S, E extends DomainEvent> {
  private readonly cache = new Map<string, LoadedAgent<S>>();
  private readonly agents: AgentFold<S, E>;
  private readonly maxRetries: number;
  private readonly snapshotEvery: number;
  private readonly cacheSize: number;

  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
    private readonly decider: AgentDecider<S, E>,
    private readonly options: AgentRepositoryOptions = {},
  ) {
    this.agents = new AgentFold(store, decider, snapshots);
    this.maxRetries = options.maxRetries ?? 5;
    this.snapshotEvery = options.snapshotEvery ?? 200;
    this.cacheSize = options.cacheSize ?? 1000;
  }

  /** The agent as of the store's latest revision: the cached state, else the snapshot's, and the tail after it. */
  async load(agentId: string): Promise<LoadedAgent<S>> {
    const cached = this.cache.get(agentId);
    const { state, revision, snapshot, tail } = await this.agents.fold(agentId, { base: cached });
    let loaded = cached;
    if (!loaded || tail.length > 0) {
      const commands =
        cached?.commands ?? (snapshot ? IdempotencyWindow.fromJSON(snapshot.commands) : IdempotencyWindow.empty());
      const sinceSnapshot = (cached?.sinceSnapshot ?? 0) + tail.length;
      loaded = {
        state,
        revision,
        commands: tail.length === 0 ? commands : commands.withEvents(appliedCommands(tail)),
        sinceSnapshot,
      };
    }
    this.remember(agentId, loaded);
    return loaded;
  }

  /** The cached state without any IO (it may lag other writers): for hints, never for decisions. */
  peek(agentId: string): S | null {
    return this.cache.get(agentId)?.state ?? null;
  }

  async transact(ctx: TransactRequest, decide: (state: S) => E[]): Promise<TransactResult<S, E>> {
    for (let attempt = 0; ; attempt++) {
      const loaded = await this.load(ctx.agentId);
      if (loaded.commands.has(ctx.commandId)) return this.replayCommand(ctx.agentId, ctx.commandId, loaded);
      if (ctx.expectedRevision !== undefined && loaded.revision !== ctx.expectedRevision) {
        throw new WrongExpectedRevisionError(
          agentStream(ctx.agentId),
          ctx.expectedRevision.toString(),
          loaded.revision,
        );
      }
      const events = decide(loaded.state);
      if (events.length === 0) {
        return {
          before: loaded.state,
          after: loaded.state,
          events,
          revision: loaded.revision,
          repeated: false,
          position: null,
        };
      }
      try {
        return await this.append(ctx, loaded, events);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= this.maxRetries) throw error;
      }
    }
  }

  private async append(ctx: TransactRequest, loaded: LoadedAgent<S>, events: E[]): Promise<TransactResult<S, E>> {
    const toAppend = events.map((event) => ({
      id: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: {
        command_id: ctx.commandId,
        correlation_id: ctx.correlationId ?? ctx.commandId,
        causation_id: ctx.causationId ?? ctx.commandId,
        actor: ctx.actor,
        schema_version: currentSchemaVersion(event.type),
      },
    }));
    const expected = loaded.revision === null ? 'no_stream' : loaded.revision;
    const result = await this.store.appendToStream(agentStream(ctx.agentId), toAppend, expected);
    const after = events.reduce((state, event) => this.decider.evolve(state, event), loaded.state);
    const first = result.next_revision - BigInt(events.length - 1);
    const next: LoadedAgent<S> = {
      state: after,
      revision: result.next_revision,
      commands: loaded.commands.withEvents([
        [ctx.commandId, first],
        [ctx.commandId, result.next_revision],
      ]),
      sinceSnapshot: loaded.sinceSnapshot + events.length,
    };
    this.remember(ctx.agentId, next);
    this.maybeSnapshot(ctx.agentId, next);
    return {
      before: loaded.state,
      after,
      events,
      revision: result.next_revision,
      repeated: false,
      position: result.position,
    };
  }

  /** Rebuilds the first result of an already applied command from the stored events. */
  private async replayCommand(
    agentId: string,
    commandId: string,
    loaded: LoadedAgent<S>,
  ): Promise<TransactResult<S, E>> {
    const range = loaded.commands.get(commandId)!;
    const stored = await this.store.readStream(agentStream(agentId), { max_count: Number(range.last + 1n) });
    let before = this.decider.initialState(agentId);
    const events: E[] = [];
    let position: bigint | null = null;
    for (const event of stored) {
      const domainEvent = toDomainEvent<E>(event);
      if (event.revision < range.first) before = this.decider.evolve(before, domainEvent);
      else if (event.revision <= range.last) {
        events.push(domainEvent);
        position = event.position;
      }
    }
    const after = events.reduce((state, event) => this.decider.evolve(state, event), before);
    return { before, after, events, revision: range.last, repeated: true, position };
  }

  private remember(agentId: string, loaded: LoadedAgent<S>): void {
    this.cache.delete(agentId);
    this.cache.set(agentId, loaded);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
  }

  private maybeSnapshot(agentId: string, loaded: LoadedAgent<S>): void {
    if (loaded.sinceSnapshot < this.snapshotEvery || loaded.revision === null) return;
    this.remember(agentId, { ...loaded, sinceSnapshot: 0 });
    const snapshot = {
      agent_id: agentId,
      revision: loaded.revision,
      state_version: this.decider.stateVersion,
      state: loaded.state,
      commands: loaded.commands.toJSON(),
    };
    this.snapshots.save(snapshot).catch((error) => this.options.onSnapshotError?.(error));
  }
}

/** `[command_id, revision]` of each event that carries a command id, in stream order. */
function appliedCommands(tail: readonly StoredEvent[]): Array<[string, bigint]> {
  const applied: Array<[string, bigint]> = [];
  for (const event of tail) {
    const commandId = event.metadata.command_id;
    if (typeof commandId === 'string') applied.push([commandId, event.revision]);
  }
  return applied;
}
