import { randomUUID } from 'node:crypto';
import { EventStore, WrongExpectedRevisionError } from '@app/event-store';
import {
  AgentDecider,
  AgentFold,
  agentStream,
  currentSchemaVersion,
  DomainEvent,
  SnapshotStore,
  toDomainEvent,
} from '@app/core';
import { AgentCache, eventBytes, jsonBytes } from './agent-cache';
import { AgentQueue } from './agent-queue';
import type { AgentRepositoryOptions, LoadedAgent, TransactRequest, TransactResult } from './agent-repository.types';
import { appliedCommands, schedulerEntries, windowsOf } from './command-windows';
import { replayCommand } from './replay-command';
import { SnapshotWriter } from './snapshot-writer';
import {
  afterConflict,
  backoffMs,
  type ContentionRetry,
  DEFAULT_CONTENTION_RETRY,
  idempotencyKeyReused,
} from './write-contention';

export type { AgentRepositoryOptions, LoadedAgent, TransactRequest, TransactResult } from './agent-repository.types';

/**
 * Loads an agent (cache or snapshot + tail: the one fold of libs/core), runs the decider, and
 * appends with the expected revision. The writes of one agent in this process run one at a time
 * (AgentQueue); when another process got there first, a command without expected_revision
 * reloads and decides again after a jittered backoff, a bounded number of times, then gives up
 * with 503 `contention` (docs/decisions/0016). Only a caller's own stale expected_revision is a 409.
 */
export class AgentRepository<S, E extends DomainEvent> {
  /** The agents loaded last, bounded by their states' size (least recently used out first). */
  private readonly cache: AgentCache<LoadedAgent<S>>;
  private readonly agents: AgentFold<S, E>;
  private readonly queue = new AgentQueue();
  private readonly retry: ContentionRetry;
  private readonly snapshotEvery: number;
  /** Snapshots go out one at a time, beside the appends (docs/decisions/0048). */
  readonly snapshotWriter: SnapshotWriter<S>;

  constructor(
    private readonly store: EventStore,
    snapshots: SnapshotStore,
    private readonly decider: AgentDecider<S, E>,
    private readonly options: AgentRepositoryOptions = {},
  ) {
    this.agents = new AgentFold(store, decider, snapshots);
    this.retry = {
      ...DEFAULT_CONTENTION_RETRY,
      ...options.retry,
      maxRetries: options.maxRetries ?? options.retry?.maxRetries ?? DEFAULT_CONTENTION_RETRY.maxRetries,
    };
    this.snapshotEvery = options.snapshotEvery ?? 200;
    this.snapshotWriter = new SnapshotWriter(snapshots, {
      onError: options.onSnapshotError,
      onOutcome: (outcome) => options.metrics?.agentSnapshot?.(outcome),
    });
    this.cache = new AgentCache({
      maxBytes: options.cacheMaxBytes,
      maxEntries: options.cacheSize,
      metrics: options.metrics,
    });
  }

  /**
   * The agent as of the store's latest revision: the cached state, else the snapshot's, and the tail after it.
   * `keep: false`: a state that was not cached is folded and not kept (a reader that visits every agent,
   * such as the delegation hand-off, must not fill the cache with agents nobody writes to); a cached one is
   * refreshed as always.
   */
  async load(agentId: string, options: { keep?: boolean } = {}): Promise<LoadedAgent<S>> {
    const cached = this.cache.get(agentId);
    const { state, revision, snapshot, tail } = await this.agents.fold(agentId, { base: cached });
    let loaded = cached;
    if (!loaded || tail.length > 0) {
      const windows = cached ?? windowsOf(snapshot?.commands ?? []);
      const applied = appliedCommands(tail);
      loaded = {
        state,
        revision,
        position:
          tail.length > 0 ? knownPosition(tail[tail.length - 1].position) : revision === null ? null : undefined,
        commands: applied.caller.length === 0 ? windows.commands : windows.commands.withEvents(applied.caller),
        schedulerCommands:
          applied.scheduler.length === 0
            ? windows.schedulerCommands
            : windows.schedulerCommands.withEvents(applied.scheduler),
        sinceSnapshot: (cached?.sinceSnapshot ?? 0) + tail.length,
        // A miss measures the folded state once; a hit adds what the events since brought.
        bytes: cached ? (cached.bytes ?? 0) + eventBytes(tail) : jsonBytes(state),
      };
    }
    if (cached || options.keep !== false) this.cache.set(agentId, loaded);
    return loaded;
  }

  /** The agent's events at these stream revisions, upcast (what a record's revision names: a round's text). */
  async eventsAt(agentId: string, revisions: readonly bigint[]): Promise<E[]> {
    if (revisions.length === 0) return [];
    return (await this.store.readRevisions(agentStream(agentId), revisions)).map((event) => toDomainEvent<E>(event));
  }

  /** The cached state without any IO (it may lag other writers): for hints, never for decisions. */
  peek(agentId: string): S | null {
    return this.cache.peek(agentId)?.state ?? null;
  }

  /**
   * The cached state when it is at or past `revision` (no IO, recency untouched), else null: a
   * state that includes the event at that revision, though maybe not later ones.
   */
  peekAt(agentId: string, revision: bigint): S | null {
    const cached = this.cache.peek(agentId);
    return cached && cached.revision !== null && cached.revision >= revision ? cached.state : null;
  }

  /**
   * The command id's first result when the window holds it (a repeat), null when it is new; a
   * caller's key that names a different request is refused (422 `idempotency_key_reused`).
   * A key recorded before fingerprints were kept has none: it replays, as it always did.
   */
  repeatOf(ctx: Pick<TransactRequest, 'agentId' | 'commandId' | 'fingerprint' | 'scope'>, loaded: LoadedAgent<S>) {
    const window = ctx.scope === 'scheduler' ? loaded.schedulerCommands : loaded.commands;
    const range = window.get(ctx.commandId);
    if (range === undefined) return null;
    if (range.fingerprint !== undefined && ctx.fingerprint !== undefined && range.fingerprint !== ctx.fingerprint)
      throw idempotencyKeyReused(ctx.agentId);
    return range;
  }

  /** Every write of an agent in this process goes through its queue: one at a time, in order. */
  transact(ctx: TransactRequest, decide: (state: S) => E[]): Promise<TransactResult<S, E>> {
    return this.queue.run(ctx.agentId, () => this.transactNow(ctx, decide));
  }

  private async transactNow(ctx: TransactRequest, decide: (state: S) => E[]): Promise<TransactResult<S, E>> {
    const cached = this.cache.get(ctx.agentId);
    const written = cached && (await this.appendOnCache(ctx, cached, decide));
    if (written) return written;
    const started = this.retry.now();
    for (let attempt = 0; ; attempt++) {
      const loaded = await this.load(ctx.agentId);
      const repeat = this.repeatOf(ctx, loaded);
      if (repeat)
        return {
          ...(await replayCommand(this.store, this.decider, ctx.agentId, repeat)),
          position: await this.lastPosition(ctx.agentId, loaded),
        };
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
          position: await this.lastPosition(ctx.agentId, loaded),
        };
      }
      try {
        return await this.append(ctx, loaded, events);
      } catch (error) {
        // Another process wrote first. A caller's expected_revision is now stale: the next load says 409.
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        const next = afterConflict(this.retry, ctx, attempt, started, this.options.metrics);
        if (next === 'retry') await this.retry.sleep(backoffMs(this.retry, attempt));
      }
    }
  }

  /**
   * The common case without reading the stream first: a new command whose decision on the cached
   * state appends events, with that state's revision expected. The cache is current unless another
   * process wrote the agent since, and then the append conflicts and writes nothing. Anything else
   * (a stale cache, a key the window holds, a refusal, a decision without events, an
   * expected_revision the cache does not have) returns null: the command then runs as always,
   * from a load (so every refusal and repeat is judged on the stream's latest revision).
   */
  private async appendOnCache(
    ctx: TransactRequest,
    cached: LoadedAgent<S>,
    decide: (state: S) => E[],
  ): Promise<TransactResult<S, E> | null> {
    if (cached.revision === null || (ctx.expectedRevision ?? cached.revision) !== cached.revision) return null;
    if ((ctx.scope === 'scheduler' ? cached.schedulerCommands : cached.commands).get(ctx.commandId)) return null;
    let events: E[];
    try {
      events = decide(cached.state);
    } catch {
      return null;
    }
    if (events.length === 0) return null;
    return this.append(ctx, cached, events).catch((error: unknown) => {
      if (error instanceof WrongExpectedRevisionError) return null;
      throw error;
    });
  }

  private async append(ctx: TransactRequest, loaded: LoadedAgent<S>, events: E[]): Promise<TransactResult<S, E>> {
    const toAppend = events.map((event) => ({
      id: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: {
        ...ctx.metadata,
        command_id: ctx.commandId,
        correlation_id: ctx.correlationId ?? ctx.commandId,
        causation_id: ctx.causationId ?? ctx.commandId,
        actor: ctx.actor,
        schema_version: currentSchemaVersion(event.type),
        ...(ctx.fingerprint === undefined ? {} : { command_fingerprint: ctx.fingerprint }),
        ...(ctx.scope === 'scheduler' ? { command_scope: 'scheduler' } : {}),
        ...this.options.traceContext?.(),
      },
    }));
    const expected = loaded.revision === null ? 'no_stream' : loaded.revision;
    const appending = performance.now();
    const result = await this.store.appendToStream(agentStream(ctx.agentId), toAppend, expected);
    this.options.metrics?.appendObserved((performance.now() - appending) / 1000);
    const after = events.reduce((state, event) => this.decider.evolve(state, event), loaded.state);
    const first = result.next_revision - BigInt(events.length - 1);
    const touches: Array<[string, bigint, string?]> = [
      [ctx.commandId, first, ctx.fingerprint],
      [ctx.commandId, result.next_revision, ctx.fingerprint],
    ];
    const next: LoadedAgent<S> = {
      state: after,
      revision: result.next_revision,
      position: knownPosition(result.position),
      commands: ctx.scope === 'scheduler' ? loaded.commands : loaded.commands.withEvents(touches),
      schedulerCommands:
        ctx.scope === 'scheduler' ? loaded.schedulerCommands.withEvents(touches) : loaded.schedulerCommands,
      sinceSnapshot: loaded.sinceSnapshot + events.length,
      bytes: (loaded.bytes ?? 0) + eventBytes(events),
    };
    this.cache.set(ctx.agentId, next);
    this.maybeSnapshot(ctx.agentId, next);
    return {
      before: loaded.state,
      after,
      events,
      revision: result.next_revision,
      repeated: false,
      position: next.position ?? (await this.store.headPosition()),
    };
  }

  /**
   * The global position of the agent's last event (what a reply that wrote nothing names): known
   * from the fold, else read (a fold from a snapshot read no event; an EventStoreDB server that
   * reports no positions in stream reads: the store's head, which is at or past it).
   */
  async lastPosition(agentId: string, loaded: LoadedAgent<S>): Promise<bigint | null> {
    if (loaded.position !== undefined || loaded.revision === null) return loaded.position ?? null;
    const [last] = await this.store.readStream(agentStream(agentId), { direction: 'backwards', max_count: 1 });
    const position = knownPosition(last?.revision === loaded.revision ? last.position : undefined);
    if (position !== undefined) loaded.position = position;
    return position ?? (await this.store.headPosition());
  }

  /**
   * Nest calls this when the application stops, before the servers and then the pool close: the
   * snapshots still waiting are dropped (a cache: the agents load from an older one and a longer
   * tail) and the save in flight ends first.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.snapshotWriter.close();
  }

  private maybeSnapshot(agentId: string, loaded: LoadedAgent<S>): void {
    if (loaded.sinceSnapshot < this.snapshotEvery || loaded.revision === null) return;
    this.cache.set(agentId, { ...loaded, sinceSnapshot: 0 });
    const snapshot = {
      agent_id: agentId,
      revision: loaded.revision,
      state_version: this.decider.stateVersion,
      state: loaded.state,
      commands: () => [...loaded.commands.toJSON(), ...schedulerEntries(loaded.schedulerCommands)],
    };
    this.snapshotWriter.offer(snapshot);
  }
}

/** A position a store reported (an EventStoreDB stream read may report none: -1). */
function knownPosition(position: bigint | undefined): bigint | undefined {
  return position !== undefined && position >= 0n ? position : undefined;
}
