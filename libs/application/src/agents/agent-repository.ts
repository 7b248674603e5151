import { randomUUID } from 'node:crypto';
import { EventStore, WrongExpectedRevisionError } from '@app/event-store';
import {
  AgentDecider,
  AgentFold,
  agentStream,
  currentSchemaVersion,
  DomainEvent,
  type RuntimeMetrics,
  SnapshotStore,
  type TraceContextFields,
} from '@app/core';
import { AgentCache, eventBytes, jsonBytes } from './agent-cache';
import { AgentQueue } from './agent-queue';
import { replayCommand } from './replay-command';
import { appliedCommands, type CommandScope, schedulerEntries, windowsOf } from './command-windows';
import type { IdempotencyWindow } from './idempotency-window';
import {
  afterConflict,
  backoffMs,
  type ContentionRetry,
  DEFAULT_CONTENTION_RETRY,
  idempotencyKeyReused,
} from './write-contention';

/** An agent as the repository holds it between commands: its state, revision and idempotency windows. */
export interface LoadedAgent<S> {
  state: S;
  /** Revision of the last event folded in, or null for a stream that does not exist. */
  revision: bigint | null;
  /** Global position of that event: null with no stream, undefined when the fold did not read it (a snapshot). */
  position?: bigint | null;
  /** The callers' command ids (Idempotency-Key / command_id). */
  commands: IdempotencyWindow;
  /** The scheduler's own command ids: they never push callers' keys out. */
  schedulerCommands: IdempotencyWindow;
  /** Events folded since the last snapshot was taken. */
  sinceSnapshot: number;
  /** About how many bytes the state takes (its JSON size at the last fold, plus the events since): the cache's measure. */
  bytes?: number;
}

export interface TransactRequest {
  agentId: string;
  /** Idempotency key: a repeat returns the first result and appends nothing. */
  commandId: string;
  /** The caller's optimistic check on the agent stream revision (409 on mismatch). */
  expectedRevision?: bigint;
  /** The request's fingerprint: the same key with another fingerprint is 422 `idempotency_key_reused`. */
  fingerprint?: string;
  /** Default `caller`. */
  scope?: CommandScope;
  actor: string;
  correlationId?: string;
  causationId?: string;
  /** More metadata fields for every event appended (audit: the scheduler's lease); the standard fields win. */
  metadata?: Readonly<Record<string, string | number>>;
}

export interface TransactResult<S, E extends DomainEvent> {
  before: S;
  after: S;
  events: E[];
  /** Stream revision after the write (or the current one when nothing was written). */
  revision: bigint | null;
  /** True when the command id had already been applied: the first result is returned. */
  repeated: boolean;
  /** Global position of the last event written (a repeat or a no-op: the agent's last event's; null: no stream). */
  position: bigint | null;
}

export interface AgentRepositoryOptions {
  /** Retries of a command without expected_revision that another process's write beat (default 30). */
  maxRetries?: number;
  /** The rest of the retry policy (budget, jittered backoff, Retry-After). */
  retry?: Partial<ContentionRetry>;
  snapshotEvery?: number;
  /** At most this many agents in the in-memory cache (default: bounded by bytes only). */
  cacheSize?: number;
  /** AGENT_CACHE_MAX_BYTES: the in-memory cache holds states of about this many bytes at most, least recently used out first. */
  cacheMaxBytes?: number;
  onSnapshotError?: (error: unknown) => void;
  metrics?: RuntimeMetrics; // append latency and conflicts (GET /metrics); default: not counted
  /** The active trace context, stored in each appended event's metadata (absent or {}: none is stored). */
  traceContext?: () => TraceContextFields;
}

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

  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
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
    this.cache = new AgentCache({
      maxBytes: options.cacheMaxBytes,
      maxEntries: options.cacheSize,
      metrics: options.metrics,
    });
  }

  /** The agent as of the store's latest revision: the cached state, else the snapshot's, and the tail after it. */
  async load(agentId: string): Promise<LoadedAgent<S>> {
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
    this.cache.set(agentId, loaded);
    return loaded;
  }

  /** The cached state without any IO (it may lag other writers): for hints, never for decisions. */
  peek(agentId: string): S | null {
    return this.cache.peek(agentId)?.state ?? null;
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
  private async lastPosition(agentId: string, loaded: LoadedAgent<S>): Promise<bigint | null> {
    if (loaded.position !== undefined || loaded.revision === null) return loaded.position ?? null;
    const [last] = await this.store.readStream(agentStream(agentId), { direction: 'backwards', max_count: 1 });
    const position = knownPosition(last?.revision === loaded.revision ? last.position : undefined);
    if (position !== undefined) loaded.position = position;
    return position ?? (await this.store.headPosition());
  }

  private maybeSnapshot(agentId: string, loaded: LoadedAgent<S>): void {
    if (loaded.sinceSnapshot < this.snapshotEvery || loaded.revision === null) return;
    this.cache.set(agentId, { ...loaded, sinceSnapshot: 0 });
    const snapshot = {
      agent_id: agentId,
      revision: loaded.revision,
      state_version: this.decider.stateVersion,
      state: loaded.state,
      commands: [...loaded.commands.toJSON(), ...schedulerEntries(loaded.schedulerCommands)],
    };
    this.snapshots.save(snapshot).catch((error) => this.options.onSnapshotError?.(error));
  }
}

/** A position a store reported (an EventStoreDB stream read may report none: -1). */
function knownPosition(position: bigint | undefined): bigint | undefined {
  return position !== undefined && position >= 0n ? position : undefined;
}
