import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  type ActivationReply,
  type AgentCommand,
  type AgentState,
  closureOf,
  contextProjection,
  DEFAULT_CONTEXT_BUDGET_TOKENS,
  decideNextAction,
  DomainError,
  dueTimers,
  expiredTasks,
  expiredTurn,
  renderActivationReply,
  type SchedulerDecision,
} from '@app/domain';
import { pendingKeyedDecision } from './pending-decision';
import { activationTurnId, messageId } from './scheduler-ids';
import { CLOCK, type Clock, NO_METRICS, RUNTIME_METRICS, type RuntimeMetrics } from '@app/core';
import { WrongExpectedRevisionError } from '@app/event-store';
import type { LeaseAudit } from '@app/read-models';
import type { Caller } from '../auth/request-authorizer';
import { AgentCommandService, type CommandEnvelope } from '../agents/agent-command.service';
import { backoffMs, contentionError, DEFAULT_CONTENTION_RETRY } from '../agents/write-contention';

/** The scheduler acts as this caller: it appears as `actor` in the events it writes. */
export const SCHEDULER_CALLER: Caller = { tokenName: 'scheduler', agents: [], admin: true };

export interface StepOptions {
  /** Present for `POST activations`: a StartModelTurn decision opens a turn with this lease. */
  activation?: { envelope: CommandEnvelope; lease_ttl_ms: number; context_budget_tokens?: number };
  /**
   * The worker's shard lease (ADR 0035), asked before every write: its fields go into the events'
   * metadata; null means the lease is lost and the step stops (LeaseLostError) without writing.
   */
  fence?: () => LeaseAudit | null | Promise<LeaseAudit | null>;
}

/** The worker's lease on the agent's shard was lost before a write: nothing more is written. */
export class LeaseLostError extends Error {
  constructor(readonly agentId: string) {
    super(`the scheduler lease on agent ${agentId}'s shard is no longer held: the step stops`);
    this.name = 'LeaseLostError';
  }
}

/** The state a write is decided on, and the stream revision it was folded to (the write's expected revision). */
interface Folded {
  state: AgentState;
  revision: bigint | null;
  /** The global position of the last event folded or written (undefined: the fold did not read it). */
  position?: string | null;
}

export interface StepResult {
  decision: SchedulerDecision;
  recorded_at: string;
  state: AgentState;
  /** The activation reply (decision, and for a started turn: turn, message, context). */
  reply: ActivationReply;
  revision: string | null;
  /** The global position of the step's last write (or of the agent's last event). */
  position: string | null;
}

const MAX_ATTEMPTS = 8;
/** Decisions after which the worker keeps stepping: they changed what the next decision is. */
const CHAINING = new Set(['EmitSystemTick', 'ReduceMessageOnly']);

/** The key a tick's message id is derived from (the same whether emitted with its record or alone). */
const tickKey = (decision: SchedulerDecision): string => `tick:${decision.idempotency_key}`;

/** True when carrying out `decision` changed what the next decision is: step again without waiting. */
export const chainsToNextStep = (decision: SchedulerDecision): boolean => CHAINING.has(decision.kind);

/**
 * One scheduler step for one agent, shared by the scheduler worker and `POST activations`:
 * time-driven maintenance first (an expired lease, due timers), then `decideNextAction`,
 * recorded and carried out through the decider. Every write names a command id derived from
 * the state version it was decided on, so two workers racing on one agent write each effect
 * once (the second is a repeat); a decision made on a stale state is refused by the aggregate
 * and this step reloads and decides again.
 */
@Injectable()
export class SchedulerStepService {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(RUNTIME_METRICS) private readonly metrics: RuntimeMetrics = NO_METRICS,
  ) {}

  /**
   * Steps until the decision rests (a wait, sleep, a turn to start...). For the worker. A chained
   * step decides on the state the previous one wrote (its revision is the next write's expected
   * one: a write in between is refused, and that step reloads), not on a read of it again.
   */
  async settle(agentId: string, maxSteps = 16, options: Pick<StepOptions, 'fence'> = {}): Promise<StepResult | null> {
    let last: StepResult | null = null;
    for (let i = 0; i < maxSteps; i++) {
      last = await this.step(agentId, options, last ? folded(last) : undefined);
      if (!last || !chainsToNextStep(last.decision)) return last;
    }
    return last;
  }

  /**
   * Every write names the stream revision its decision was computed from (fencing, ADR 0035): a
   * write beaten by another writer (another replica, an activation) is refused by the store and
   * the step reloads and decides again, after a jittered backoff; 503 `contention` when others
   * keep winning (as a command without expected_revision, ADR 0016). A decision the aggregate
   * finds stale (`conflict`) is decided again at most 8 times.
   */
  async step(agentId: string, options: StepOptions = {}, from?: Folded): Promise<StepResult | null> {
    const retry = DEFAULT_CONTENTION_RETRY;
    const started = retry.now();
    for (let attempt = 0, beaten = 0; ;) {
      try {
        // `from` (the previous step's result) only at first: every retry reloads.
        return await this.attempt(agentId, options, attempt === 0 && beaten === 0 ? from : undefined);
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) {
          if (beaten >= retry.maxRetries || retry.now() - started >= retry.budgetMs)
            throw contentionError(agentId, retry, beaten + 1);
          await retry.sleep(backoffMs(retry, beaten++));
          continue;
        }
        if (!isStaleDecision(error) || attempt >= MAX_ATTEMPTS) throw error;
        attempt++;
      }
    }
  }

  private async attempt(agentId: string, options: StepOptions, from?: Folded): Promise<StepResult | null> {
    const loaded = from ?? (await this.agents.load(agentId));
    if (loaded.state.agent_id === null) return null;
    const at = await this.maintain(agentId, loaded, options);
    const now = this.clock.now().toISOString();
    const decision = decideNextAction(at.state, now);
    const closure = closureOf(at.state);
    // A tick is emitted with its record, in one append: a writer that dies after it leaves nothing to do twice.
    const tick = decision.kind === 'EmitSystemTick';
    const data = { decision, at: now, ...(tick && { message_id: messageId(agentId, tickKey(decision)) }) };
    const pending = pendingKeyedDecision(at.state, decision);
    const record = pending
      ? { ...at, lease: undefined }
      : await this.write(agentId, at, 'record', { type: 'RecordDecision', data }, options);
    if (!pending) this.metrics.schedulerDecision(decision.kind);
    // A recorded decision's effect follows under the same lease, unasked: stopping between them would
    // leave the effect to the next owner (which does not record the keyed decision again). The
    // expected revision still fences it.
    const recordedUnder = record.lease;
    const effectOptions = recordedUnder ? { ...options, fence: () => recordedUnder } : options;
    // A tick recorded without its emission (a stream written before they shared an append) is emitted on its own.
    const effect = tick && !pending ? null : await this.carryOut(agentId, record, decision, effectOptions);
    const after = effect?.state ?? record.state;
    const context = effect?.turnId
      ? contextProjection(after, {
          budget_tokens: options.activation?.context_budget_tokens ?? DEFAULT_CONTEXT_BUDGET_TOKENS,
          reminders: this.agents.reminders,
          round_texts: await this.agents.roundTexts(agentId, after),
        })
      : undefined;
    const reply = renderActivationReply({
      decision,
      recorded_at: now,
      after,
      turn_id: effect?.turnId,
      context,
      closure,
    });
    return {
      decision,
      recorded_at: now,
      state: after,
      reply,
      revision: (effect ?? record).revision?.toString() ?? null,
      // A step that wrote nothing names the agent's last event (read only when the fold did not know it).
      position: (effect ?? record).position ?? (await this.agents.lastPosition(agentId)),
    };
  }

  /** An expired turn or task lease is interrupted and due timers fire before anything is decided. */
  private async maintain(agentId: string, at: Folded, options: StepOptions): Promise<Folded> {
    for (let guard = 0; guard < 64; guard++) {
      const now = this.clock.now().toISOString();
      const expired = expiredTurn(at.state, now);
      if (expired) {
        at = await this.write(
          agentId,
          at,
          `expire:${expired.turn_id}`,
          { type: 'ExpireLease', data: { turn_id: expired.turn_id } },
          options,
        );
        this.metrics.leaseExpired('turn');
        continue;
      }
      const [task] = expiredTasks(at.state, now);
      if (task) {
        const key = `expire-task:${task.id}:${task.lease_expires_at}`;
        const data = { task_id: task.id, message_id: messageId(agentId, key) };
        at = await this.write(agentId, at, key, { type: 'ExpireTaskLease', data }, options);
        this.metrics.leaseExpired('task');
        continue;
      }
      const [timer] = dueTimers(at.state, now);
      if (!timer) return at;
      const key = `fire:${timer.id}:${timer.fire_at}`;
      const data = { timer_id: timer.id, message_id: messageId(agentId, key) };
      at = await this.write(agentId, at, key, { type: 'FireTimer', data }, options);
      this.metrics.timerLateness(Math.max(0, Date.parse(now) - Date.parse(timer.fire_at)) / 1000);
    }
    return at;
  }

  private async carryOut(agentId: string, at: Folded, decision: SchedulerDecision, options: StepOptions) {
    switch (decision.kind) {
      case 'EmitSystemTick': {
        const key = tickKey(decision);
        const data = { decision, message_id: messageId(agentId, key) };
        return this.write(agentId, at, key, { type: 'EmitSystemTick', data }, options);
      }
      case 'ReduceMessageOnly':
        return this.write(
          agentId,
          at,
          `reduce:${decision.message_id}`,
          { type: 'ReduceMessage', data: { message_id: decision.message_id! } },
          options,
        );
      case 'StartModelTurn':
        return options.activation ? this.startTurn(agentId, at, decision, options.activation) : null;
      default:
        return null;
    }
  }

  /** The activation's turn, on the revision its decision was recorded at (the caller's key names it). */
  private async startTurn(
    agentId: string,
    at: Folded,
    decision: SchedulerDecision,
    activation: NonNullable<StepOptions['activation']>,
  ) {
    const envelope = activation.envelope;
    const meta = this.agents.meta(envelope);
    const turnId = activationTurnId(agentId, meta.command_id);
    const command: AgentCommand = {
      type: 'StartTurn',
      data: { turn_id: turnId, message_id: decision.message_id!, lease_ttl_ms: activation.lease_ttl_ms },
      meta,
    };
    const fenced: CommandEnvelope = { ...envelope, expectedRevision: at.revision ?? undefined };
    const result = await this.agents.run(fenced, command, (_c, _b, after) => ({ after }));
    const revision = result.revision === null ? null : BigInt(result.revision);
    return { state: result.after, revision, position: result.position, turnId };
  }

  /**
   * A scheduler write: its command id is derived from the state version it was decided on, it
   * expects the stream at the revision that state was folded to, and it carries the worker's
   * lease in its metadata (when the worker writes).
   */
  private async write(
    agentId: string,
    at: Folded,
    what: string,
    command: Omit<AgentCommand, 'meta'>,
    options: StepOptions,
  ) {
    const lease = await options.fence?.();
    if (options.fence && !lease) throw new LeaseLostError(agentId);
    const envelope: CommandEnvelope = {
      agentId,
      caller: SCHEDULER_CALLER,
      idempotencyKey: `sched:${at.state.version}:${what}`,
      scope: 'scheduler',
      expectedRevision: at.revision ?? undefined,
      ...(lease ? { metadata: { ...lease } } : {}),
    };
    const full = { ...command, meta: this.agents.meta(envelope) } as AgentCommand;
    const result = await this.agents.run(envelope, full, (_c, _b, after) => ({ after }));
    return {
      state: result.after,
      revision: result.revision === null ? null : BigInt(result.revision),
      position: result.position,
      turnId: undefined as string | undefined,
      lease,
    };
  }
}

/** A step's result as the state the next chained step decides on. */
const folded = (result: StepResult): Folded => ({
  state: result.state,
  revision: result.revision === null ? null : BigInt(result.revision),
  position: result.position,
});

function isStaleDecision(error: unknown): boolean {
  return error instanceof DomainError && error.code === 'conflict';
}
