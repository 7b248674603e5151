import { type AgentState, nextDueAt } from '@app/domain';
import type { EventStore, Subscription } from '@app/event-store';
import {
  agentIdOfStream,
  type AgendaShards,
  type AgentDirectory,
  NO_METRICS,
  NO_TRACING,
  type RuntimeMetrics,
  type TracedEvent,
  type Tracing,
} from '@app/core';
import type { AgentOwnershipChange, LeaseAudit } from '@app/read-models';
import { AgendaLoader } from './agenda-loader';
import { DueAgenda } from './due-agenda';
import { EvaluatedRevisions } from './evaluated-revisions';
import { LeaseLostError, type SchedulerStepService } from './scheduler-step.service';

const RETRY_AFTER_MS = 2_000;
/** The events kept per agent as the causes of its next evaluation (tracing on): the last ones. */
const MAX_CAUSES = 8;

export interface WorkerLogger {
  error(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/** Which agents this replica acts on (ShardOwnership: the shards it leases, ADR 0035). */
export interface AgentOwnership {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The lease this replica acts under for the agent now, or null: another replica's agent. */
  leaseOf(agentId: string): LeaseAudit | null;
  /** True when the agent's shard is still this replica's but its lease lapsed locally (no round since). */
  lapsed(agentId: string): boolean;
  onChange(listener: (change: AgentOwnershipChange) => void): () => void;
  /** The shards held now (for the agenda queries); absent: the worker filters the agents itself. */
  heldShards?(): AgendaShards;
}

export interface SchedulerWorkerOptions {
  concurrency?: number;
  now?: () => number;
  /** Recoveries (an agent whose evaluation failed is evaluated again without failing); default: not counted. */
  metrics?: RuntimeMetrics;
  /** Tracing on: each evaluation is a span in the trace of the event that caused it (docs/decisions/0033). */
  tracing?: Tracing;
  /** Absent: this worker acts on every agent of its store (a lone worker, the specs of before). */
  ownership?: AgentOwnership;
  /** How far ahead the agenda holds the read model's deadlines (default 2 min; read again every half of it). */
  horizonMs?: number;
}

/**
 * The scheduler worker: evaluates an agent at its boundaries (after its events, and when a
 * timer, lease or recheck falls due) and lets the decider record and carry out the decision.
 * Agents are evaluated one at a time each (a burst of events folds into one more pass);
 * nothing polls: an idle agent costs nothing until its next event or deadline.
 */
export class SchedulerWorker {
  private readonly dirty = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  /** Agents whose last evaluation failed (bounded by the agents of this store). */
  private readonly failed = new Set<string>();
  private readonly agenda: DueAgenda;
  private subscription?: Subscription;
  private consuming?: Promise<void>;
  private stopped = true;
  private idleWaiters: Array<() => void> = [];
  private readonly tracing: Tracing;
  /** Tracing on: the events that asked for each agent's pending evaluation. */
  private readonly causes = new Map<string, TracedEvent[]>();
  private offOwnership?: () => void;
  private readonly deferred = new Set<string>();
  /** With a directory that has the agenda read model: what start and gained shards read (ADR 0038). */
  private readonly loader: AgendaLoader | null;
  /** What each agent's last evaluation saw: its own writes coming back ask for no second one. */
  private readonly seen = new EvaluatedRevisions();
  evaluations = 0;

  constructor(
    private readonly store: EventStore,
    private readonly steps: SchedulerStepService,
    private readonly directory: AgentDirectory,
    private readonly logger: WorkerLogger,
    private readonly options: SchedulerWorkerOptions = {},
  ) {
    this.agenda = new DueAgenda((ids) => ids.forEach((id) => this.poke(id)), options.now);
    this.tracing = options.tracing ?? NO_TRACING;
    this.loader = directory.agenda
      ? new AgendaLoader(
          directory as AgentDirectory & Required<Pick<AgentDirectory, 'agenda'>>,
          store,
          this.agenda,
          (agentId) => this.poke(agentId),
          () => options.ownership?.heldShards?.(),
          {
            horizonMs: options.horizonMs,
            now: options.now ?? Date.now,
            onError: (error, message) => this.logger.error({ err: error, component: 'scheduler' }, message),
          },
        )
      : null;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    const ownership = this.options.ownership;
    if (ownership) {
      // The first lease round: a lone replica holds every shard before it evaluates anything.
      await ownership.start();
      this.offOwnership = ownership.onChange((change) => this.rebalanced(change));
    }
    const from = await this.directory.projectedUpTo();
    this.subscription = this.store.subscribeToAll({ after_position: from ?? undefined });
    this.consuming = this.consume(this.subscription);
    // The agents undecided or due soon (the agenda read model), not every agent; without it, every agent.
    if (this.loader) await this.loader.start();
    else for (const agentId of await this.directory.agentIds()) this.poke(agentId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.agenda.stop();
    this.loader?.stop();
    this.offOwnership?.();
    await this.subscription?.stop();
    await this.consuming;
    await Promise.allSettled([...this.running.values()]);
    await this.options.ownership?.stop();
  }

  /** Ask for an evaluation of this agent (coalesced with one already pending); another replica's agent is ignored. */
  poke(agentId: string): void {
    this.request(agentId, false);
  }

  /** The subscription delivered an event of the agent: an evaluation unless the last one saw it already. */
  private pokeByEvent(agentId: string, revision: bigint | undefined): void {
    this.request(agentId, true, revision);
  }

  private request(agentId: string, byEvent: boolean, revision?: bigint): void {
    if (this.stopped) return;
    if (!this.owns(agentId)) {
      // A shard still ours whose lease lapsed here (a pause): its agent is evaluated when a round gives it back.
      if (this.options.ownership?.lapsed(agentId)) this.deferred.add(agentId);
      return;
    }
    // Only for an agent this worker takes: another replica's events leave nothing behind.
    if (byEvent) this.seen.askedByEvent(agentId, revision, this.dirty.has(agentId));
    else this.seen.askedOtherwise(agentId);
    this.dirty.add(agentId);
    this.drain();
  }

  /** Resolves when no evaluation is running or pending (for tests and shutdown). */
  idle(): Promise<void> {
    if (this.dirty.size === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private owns(agentId: string): boolean {
    return !this.options.ownership || this.options.ownership.leaseOf(agentId) !== null;
  }

  /**
   * After a lease round moved shards: the agents of a lost shard leave the pending set and the
   * agenda (their new owner evaluates them); those of a gained shard are evaluated once, as at
   * start (overdue timers fire, the agenda is rebuilt for them).
   */
  private rebalanced(change: AgentOwnershipChange): void {
    if (this.stopped) return;
    if (change.lostAny) {
      for (const agentId of [...this.dirty])
        if (change.lost(agentId)) {
          this.dirty.delete(agentId);
          this.seen.drop(agentId);
        }
      this.agenda.forget(change.lost);
    }
    for (const agentId of [...this.deferred]) if (change.lost(agentId)) this.deferred.delete(agentId);
    if (!change.gainedAny) return;
    for (const agentId of [...this.deferred])
      if (change.gained(agentId)) {
        this.deferred.delete(agentId);
        this.poke(agentId);
      }
    const shards = change.gainedShards && this.options.ownership?.heldShards?.();
    if (this.loader && shards) {
      this.loader
        .gained({ count: shards.count, held: change.gainedShards! }, change.gained)
        .catch((error) =>
          this.logger.error({ err: error, component: 'scheduler' }, 'could not read the agents of gained shards'),
        );
      return;
    }
    this.directory
      .agentIds()
      .then((ids) => ids.filter((agentId) => change.gained(agentId)).forEach((agentId) => this.poke(agentId)))
      .catch((error) =>
        this.logger.error({ err: error, component: 'scheduler' }, 'could not list the agents of gained shards'),
      );
  }

  private async consume(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        const agentId = agentIdOfStream(event.stream);
        if (agentId === null || this.seen.covers(agentId, event.revision)) continue;
        if (this.tracing.enabled) this.rememberCause(agentId, event);
        this.pokeByEvent(agentId, event.revision);
      }
    } catch (error) {
      if (!this.stopped)
        this.logger.error(
          { err: error, component: 'scheduler' },
          'scheduler subscription ended; agents are still evaluated on their deadlines',
        );
    }
  }

  private drain(): void {
    const limit = this.options.concurrency ?? 4;
    // The set itself, not a copy: deleting while iterating is safe, and at most `limit` entries are skipped.
    for (const agentId of this.dirty) {
      if (this.running.size >= limit) return;
      if (this.running.has(agentId)) continue;
      this.dirty.delete(agentId);
      if (!this.seen.take(agentId)) {
        this.causes.delete(agentId);
        continue;
      }
      const run = this.evaluate(agentId).finally(() => {
        this.running.delete(agentId);
        this.drain();
      });
      this.running.set(agentId, run);
    }
    if (this.dirty.size === 0 && this.running.size === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  private rememberCause(agentId: string, event: TracedEvent & { type: string; position: bigint }): void {
    const causes = this.causes.get(agentId) ?? [];
    causes.push({ metadata: event.metadata, attributes: { type: event.type, position: event.position.toString() } });
    this.causes.set(agentId, causes.slice(-MAX_CAUSES));
  }

  /** settle, in a span caused by the events that asked for it when tracing is on. */
  private settle(agentId: string, fence?: () => LeaseAudit | null) {
    if (!this.tracing.enabled) return this.steps.settle(agentId, undefined, { fence });
    const causes = this.causes.get(agentId) ?? [];
    this.causes.delete(agentId);
    return this.tracing.causedBy('scheduler decide', causes, { 'agent.id': agentId }, async (annotate) => {
      const result = await this.steps.settle(agentId, undefined, { fence });
      if (result) annotate({ 'agent_runtime.decision': result.decision.kind });
      return result;
    });
  }

  private async evaluate(agentId: string): Promise<void> {
    const ownership = this.options.ownership;
    if (this.stopped || !this.owns(agentId)) return;
    this.evaluations += 1;
    this.options.metrics?.schedulerEvaluated?.();
    try {
      const fence = ownership ? () => ownership.leaseOf(agentId) : undefined;
      const result = await this.settle(agentId, fence);
      this.seen.record(agentId, result?.revision);
      if (this.owns(agentId)) this.agenda.set(agentId, result ? nextDueAt(result.state as AgentState) : null);
      if (this.failed.delete(agentId)) (this.options.metrics ?? NO_METRICS).recovered('scheduler_step');
    } catch (error) {
      if (error instanceof LeaseLostError) return;
      this.failed.add(agentId);
      this.logger.error(
        { err: error, component: 'scheduler', agent_id: agentId },
        'scheduler step failed; retrying shortly',
      );
      const now = this.options.now?.() ?? Date.now();
      this.agenda.set(agentId, new Date(now + RETRY_AFTER_MS).toISOString());
    }
  }
}
