import { createHash } from 'node:crypto';
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
import { CLOCK, type Clock, NO_METRICS, RUNTIME_METRICS, type RuntimeMetrics } from '@app/core';
import type { Caller } from '../auth/request-authorizer';
import { AgentCommandService, type CommandEnvelope } from '../agents/agent-command.service';

/** The scheduler acts as this caller: it appears as `actor` in the events it writes. */
export const SCHEDULER_CALLER: Caller = { tokenName: 'scheduler', agents: [], admin: true };

export interface StepOptions {
  /** Present for `POST activations`: a StartModelTurn decision opens a turn with this lease. */
  activation?: { envelope: CommandEnvelope; lease_ttl_ms: number; context_budget_tokens?: number };
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

  /** Steps until the decision rests (a wait, sleep, a turn to start...). For the worker. */
  async settle(agentId: string, maxSteps = 16): Promise<StepResult | null> {
    let last: StepResult | null = null;
    for (let i = 0; i < maxSteps; i++) {
      last = await this.step(agentId);
      if (!last || !chainsToNextStep(last.decision)) return last;
    }
    return last;
  }

  async step(agentId: string, options: StepOptions = {}): Promise<StepResult | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(agentId, options);
      } catch (error) {
        if (!isStaleDecision(error) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async attempt(agentId: string, options: StepOptions): Promise<StepResult | null> {
    let { state } = await this.agents.load(agentId);
    if (state.agent_id === null) return null;
    state = await this.maintain(agentId, state);
    const now = this.clock.now().toISOString();
    const decision = decideNextAction(state, now);
    const closure = closureOf(state);
    const record = await this.write(agentId, state, 'record', { type: 'RecordDecision', data: { decision, at: now } });
    state = record.state;
    this.metrics.schedulerDecision(decision.kind);
    const effect = await this.carryOut(agentId, state, decision, options);
    const after = effect?.state ?? state;
    const context = effect?.turnId
      ? contextProjection(after, {
          budget_tokens: options.activation?.context_budget_tokens ?? DEFAULT_CONTEXT_BUDGET_TOKENS,
          reminders: this.agents.reminders,
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
      revision: (effect ?? record).revision,
      position: (effect ?? record).position,
    };
  }

  /** An expired turn or task lease is interrupted and due timers fire before anything is decided. */
  private async maintain(agentId: string, state: AgentState): Promise<AgentState> {
    for (let guard = 0; guard < 64; guard++) {
      const now = this.clock.now().toISOString();
      const expired = expiredTurn(state, now);
      if (expired) {
        state = (
          await this.write(agentId, state, `expire:${expired.turn_id}`, {
            type: 'ExpireLease',
            data: { turn_id: expired.turn_id },
          })
        ).state;
        this.metrics.leaseExpired('turn');
        continue;
      }
      const [task] = expiredTasks(state, now);
      if (task) {
        const key = `expire-task:${task.id}:${task.lease_expires_at}`;
        state = (
          await this.write(agentId, state, key, {
            type: 'ExpireTaskLease',
            data: { task_id: task.id, message_id: messageId(agentId, key) },
          })
        ).state;
        this.metrics.leaseExpired('task');
        continue;
      }
      const [timer] = dueTimers(state, now);
      if (!timer) return state;
      const key = `fire:${timer.id}:${timer.fire_at}`;
      state = (
        await this.write(agentId, state, key, {
          type: 'FireTimer',
          data: { timer_id: timer.id, message_id: messageId(agentId, key) },
        })
      ).state;
      this.metrics.timerLateness(Math.max(0, Date.parse(now) - Date.parse(timer.fire_at)) / 1000);
    }
    return state;
  }

  private async carryOut(agentId: string, state: AgentState, decision: SchedulerDecision, options: StepOptions) {
    switch (decision.kind) {
      case 'EmitSystemTick': {
        const key = `tick:${decision.idempotency_key}`;
        return this.write(agentId, state, key, {
          type: 'EmitSystemTick',
          data: { decision, message_id: messageId(agentId, key) },
        });
      }
      case 'ReduceMessageOnly':
        return this.write(agentId, state, `reduce:${decision.message_id}`, {
          type: 'ReduceMessage',
          data: { message_id: decision.message_id! },
        });
      case 'StartModelTurn':
        return options.activation ? this.startTurn(agentId, state, decision, options.activation) : null;
      default:
        return null;
    }
  }

  private async startTurn(
    agentId: string,
    state: AgentState,
    decision: SchedulerDecision,
    activation: NonNullable<StepOptions['activation']>,
  ) {
    const envelope = activation.envelope;
    const turnId = activationTurnId(agentId, this.agents.meta(envelope).command_id);
    const command: AgentCommand = {
      type: 'StartTurn',
      data: { turn_id: turnId, message_id: decision.message_id!, lease_ttl_ms: activation.lease_ttl_ms },
      meta: this.agents.meta(envelope),
    };
    const result = await this.agents.run(envelope, command, (_c, _b, after) => ({ after }));
    return { state: result.after, revision: result.revision, position: result.position, turnId };
  }

  /** A scheduler write: its command id is derived from the state version it was decided on. */
  private async write(agentId: string, state: AgentState, what: string, command: Omit<AgentCommand, 'meta'>) {
    const envelope: CommandEnvelope = {
      agentId,
      caller: SCHEDULER_CALLER,
      idempotencyKey: `sched:${state.version}:${what}`,
      scope: 'scheduler',
    };
    const full = { ...command, meta: this.agents.meta(envelope) } as AgentCommand;
    const result = await this.agents.run(envelope, full, (_c, _b, after) => ({ after }));
    return {
      state: result.after,
      revision: result.revision,
      position: result.position,
      turnId: undefined as string | undefined,
    };
  }
}

function isStaleDecision(error: unknown): boolean {
  return error instanceof DomainError && error.code === 'conflict';
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The turn an activation opens: derived from its command id, so a repeated activation names the same turn. */
export const activationTurnId = (agentId: string, commandId: string) =>
  `turn_${digest(`${agentId}\u0000${commandId}`).slice(0, 32)}`;

/** Message ids of the scheduler's own messages: derived from what queued them, so a repeat is identical. */
export const messageId = (agentId: string, key: string) => `msg_${digest(`${agentId}\u0000${key}`).slice(0, 32)}`;
