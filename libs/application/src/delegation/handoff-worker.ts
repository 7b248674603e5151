import type { EventStore, StoredEvent, Subscription } from '@app/event-store';
import { agentIdOfStream } from '@app/core';
import type { HandoffCheckpointStore } from '@app/read-models';
import type { DelegationHandoff } from './delegation-handoff';

/** The checkpoint row of the hand-off (one per deployment: a second runner shares it). */
export const HANDOFF_CHECKPOINT = 'delegation_handoff';

/**
 * The events after which the hand-off may owe a step: a delegation's own facts, what ends a
 * child's delegated work (completion, its report, a turn's end, the scheduler's decision that
 * nothing is left to run, a stop) and what stops a private child (the parent stopped, its child
 * task cancelled).
 */
export const HANDOFF_EVENT_TYPES: ReadonlySet<string> = new Set([
  'WorkItemDelegated',
  'WorkItemDelegationReceived',
  'WorkItemDelegationReported',
  'WorkItemCompleted',
  'WorkItemReportPromoted',
  'TurnTerminal',
  'SchedulerDecisionRecorded',
  'AgentStopped',
  'TaskCancelling',
  'TaskCancelled',
]);

export interface HandoffLogger {
  error(fields: Record<string, unknown>, message: string): void;
}

export interface HandoffWorkerOptions {
  /** Pause before a failed step is tried again (default 500 ms), and attempts per event (default 5). */
  retryMs?: number;
  attempts?: number;
  /** Events between two checkpoint saves when none owed a step (default 200). */
  saveEvery?: number;
  /**
   * A hint without IO (DelegationHandoff.inNoDelegation): true when the agent of an event is known
   * to be in no delegation as of that event, which then owes nothing and is not settled.
   */
  inNoDelegation?: (agentId: string, revision: bigint) => boolean;
}

/**
 * The hand-off process manager (issue 17 item 3), in the scheduler role: it follows the store
 * from its checkpoint and settles the delegations of the agent of every event that may owe a
 * step, in order, saving the checkpoint after each whose agent is in a delegation (an event of
 * an agent in none owes nothing, as an irrelevant one: a save every `saveEvery` events). Every
 * step is idempotent (DelegationHandoff), so a crash, a replay from an older checkpoint or a
 * second runner repeats only no-ops.
 */
export class HandoffWorker {
  private subscription?: Subscription;
  private consuming?: Promise<void>;
  private stopped = true;
  private sinceSave = 0;
  /** The last position saved, and the save under way (saves never overlap nor go backwards). */
  private saved = -1n;
  private saving: Promise<void> = Promise.resolve();
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];
  /** The position of the last event handled (tests wait for it). */
  handled = -1n;

  constructor(
    private readonly store: EventStore,
    private readonly handoff: DelegationHandoff,
    private readonly checkpoints: HandoffCheckpointStore,
    private readonly logger: HandoffLogger,
    private readonly options: HandoffWorkerOptions = {},
  ) {}

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    const from = await this.checkpoints.load(HANDOFF_CHECKPOINT);
    this.handled = from ?? -1n;
    this.saved = from ?? -1n;
    this.subscription = this.store.subscribeToAll({
      after_position: from ?? undefined,
      // A server checkpoint (EventStoreDB, ADR 0043) is told once every event before it is
      // handled (the loop asks for the next event only then): a restart resumes after it.
      on_checkpoint: (position) => {
        this.persist(position).catch((error: unknown) =>
          this.logger.error({ err: error, component: 'handoff' }, 'hand-off checkpoint not saved'),
        );
      },
    });
    this.consuming = this.consume(this.subscription);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    await this.consuming;
    await this.saving;
  }

  /** Resolves once every event up to `position` is handled. */
  reached(position: bigint): Promise<void> {
    if (this.handled >= position) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ position, resolve }));
  }

  private async consume(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        if (this.stopped) return;
        await this.handle(event);
      }
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error, component: 'handoff' }, 'hand-off subscription ended');
    }
  }

  private async handle(event: StoredEvent): Promise<void> {
    const agentId = agentIdOfStream(event.stream);
    const relevant = agentId !== null && HANDOFF_EVENT_TYPES.has(event.type);
    // False: the agent is in no delegation (a fleet's scheduler decisions, mostly), nothing to keep at once.
    const owed =
      relevant &&
      !this.options.inNoDelegation?.(agentId, event.revision) &&
      (await this.settle(agentId, event)) !== false;
    this.sinceSave += 1;
    if (owed || this.sinceSave >= (this.options.saveEvery ?? 200)) {
      await this.persist(event.position);
      this.sinceSave = 0;
    }
    this.handled = event.position;
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.position > event.position) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Saves the checkpoint, one save at a time and never backwards (an event's and a server checkpoint's). */
  private persist(position: bigint): Promise<void> {
    const next = this.saving.then(async () => {
      if (position <= this.saved) return;
      await this.checkpoints.save(HANDOFF_CHECKPOINT, position);
      this.saved = position;
    });
    this.saving = next.catch(() => undefined);
    return next;
  }

  /** The hand-off's answer (false: the agent is in no delegation), or undefined after the attempts failed. */
  private async settle(agentId: string, event: StoredEvent): Promise<boolean | undefined> {
    const attempts = this.options.attempts ?? 5;
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        return await this.handoff.settle(agentId);
      } catch (error) {
        if (attempt >= attempts) {
          // Left for the agent's next event (and flagged on the delegations list meanwhile).
          this.logger.error(
            { err: error, component: 'handoff', agent_id: agentId, position: event.position.toString() },
            'hand-off step failed; moving on',
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, (this.options.retryMs ?? 500) * attempt));
      }
    }
  }
}
