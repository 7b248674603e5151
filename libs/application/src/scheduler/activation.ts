import { performance } from 'node:perf_hooks';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, Command } from '@nestjs/cqrs';
import {
  type ActivationReply,
  type AgentState,
  type RoundTexts,
  closureOf,
  contextProjection,
  decideNextAction,
  DomainError,
  nextDueAt,
  renderActivationReply,
  type StartTurn,
  turnView,
} from '@app/domain';
import { CLOCK, type Clock } from '@app/core';
import { AgentCommandService, type CommandEnvelope, type WithRevision } from '../agents/agent-command.service';
import { ActivationWaiters } from './activation-waiters';
import { activationTurnId } from './scheduler-ids';
import { chainsToNextStep, SchedulerStepService, type StepOptions } from './scheduler-step.service';

export const DEFAULT_LEASE_TTL_MS = 60_000;
/** The longest `wait_ms` of a long-poll activation. */
export const MAX_ACTIVATION_WAIT_MS = 60_000;
/** A deadline still past after a step (nothing acted on it) is looked at again after this, never in a loop. */
const PAST_DUE_RETRY_MS = 1_000;
/** Steps in a row without waiting, while decisions chain (ticks, reduce-only messages). */
const MAX_CHAINED_STEPS = 16;

export interface ActivationInput {
  lease_ttl_ms?: number;
  context_budget_tokens?: number;
  /**
   * Long poll (docs/decisions/0028): when the decision opens no turn, wait up to this many ms for
   * something that can change it (an event of the agent, its next deadline) and step again.
   * 0 or absent: one step.
   */
  wait_ms?: number;
  /** Ends the wait when the caller is gone (the HTTP connection closed, the gRPC call cancelled). */
  signal?: AbortSignal;
}

type Activation = NonNullable<StepOptions['activation']>;

/** `POST activations`: the agent host asks what to do next; one scheduler step answers (or, with wait_ms, the first that opens a turn). */
export class ActivateAgentCommand extends Command<WithRevision<ActivationReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly input: ActivationInput,
  ) {
    super();
  }
}

@CommandHandler(ActivateAgentCommand)
export class ActivateAgentHandler implements ICommandHandler<ActivateAgentCommand> {
  constructor(
    private readonly steps: SchedulerStepService,
    private readonly agents: AgentCommandService,
    private readonly waiters: ActivationWaiters,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ envelope, input }: ActivateAgentCommand) {
    const activation: Activation = {
      envelope,
      lease_ttl_ms: input.lease_ttl_ms ?? DEFAULT_LEASE_TTL_MS,
      context_budget_tokens: input.context_budget_tokens,
    };
    const repeated = await this.repeatedActivation(activation);
    if (repeated) return repeated;
    if (!input.wait_ms) return (await this.stepOnce(activation)).reply;
    return this.waitForTurn(activation, input.wait_ms, input.signal);
  }

  private async stepOnce(activation: Activation) {
    const result = await this.steps.step(activation.envelope.agentId, { activation });
    if (!result) throw notFound(activation.envelope.agentId);
    return {
      result,
      reply: {
        ...this.agents.withLocalPlans(activation.envelope.agentId, result.reply),
        revision: result.revision,
        position: result.position,
      },
    };
  }

  /**
   * The long poll: step; a turn, a stopped or paused agent, the caller gone or the time up answers
   * the step's reply; otherwise wait for an event of the agent past the one the step decided on
   * (delivered by the process's one subscription) or for the agent's next deadline, and step again.
   * The waiter is registered before the first step, so a write between a step and its wait is seen.
   */
  private async waitForTurn(activation: Activation, waitMs: number, signal?: AbortSignal) {
    const agentId = activation.envelope.agentId;
    const endsAt = performance.now() + waitMs;
    const waiter = await this.waiters.register(agentId, activation.envelope.caller.tokenName);
    try {
      for (let chained = 0; ; chained++) {
        const { result, reply } = await this.stepOnce(activation);
        if (reply.turn || result.state.posture === 'stopped' || result.state.posture === 'paused') return reply;
        waiter.saw(BigInt(result.state.version - 1));
        if (signal?.aborted) return reply;
        if (chainsToNextStep(result.decision) && chained < MAX_CHAINED_STEPS) continue;
        chained = 0;
        const left = endsAt - performance.now();
        if (left <= 0) return reply;
        const end = await waiter.wait(Math.min(left, this.untilDue(result.state)), signal);
        if (end === 'aborted' || end === 'closing') return reply;
        if (end === 'timeout' && performance.now() >= endsAt) return reply;
        // A retry of this request (same Idempotency-Key) may have opened the turn while this one waited.
        const repeated = await this.repeatedActivation(activation);
        if (repeated) return repeated;
      }
    } finally {
      waiter.release();
    }
  }

  /** Real ms until time alone changes the decision (a timer, a lease, a recheck), on the injected clock. */
  private untilDue(state: AgentState): number {
    const due = nextDueAt(state);
    if (due === null) return Number.POSITIVE_INFINITY;
    const ms = Date.parse(due) - this.clock.now().getTime();
    return ms > 0 ? ms + 1 : PAST_DUE_RETRY_MS;
  }

  /**
   * A repeated Idempotency-Key whose activation opened a turn answers the first reply and steps
   * nothing: the repository replays that StartTurn (its state before and after), and the decision
   * is the one the aggregate accepted for it, recomputed on the state before it at the turn's start.
   * (An activation that opened no turn appended nothing under its key: it simply runs again.)
   */
  private async repeatedActivation({ envelope, lease_ttl_ms, context_budget_tokens }: Activation) {
    if (!envelope.idempotencyKey) return null;
    const turnId = activationTurnId(envelope.agentId, envelope.idempotencyKey);
    const turn = turnView((await this.agents.load(envelope.agentId)).state, turnId);
    if (turn === null) return null;
    const data = { turn_id: turnId, message_id: turn.message_id, lease_ttl_ms };
    const command: StartTurn = { type: 'StartTurn', data, meta: this.agents.meta(envelope) };
    const contextOf = (after: AgentState, round_texts?: RoundTexts) =>
      contextProjection(after, { budget_tokens: context_budget_tokens, reminders: this.agents.reminders, round_texts });
    let replayed: AgentState | undefined;
    const reply = await this.agents.run(envelope, command, (_command, before, after) => {
      replayed = after;
      return renderActivationReply({
        decision: decideNextAction(before, turn.started_at),
        recorded_at: turn.started_at,
        after,
        turn_id: turnId,
        context: contextOf(after),
        closure: closureOf(before),
      });
    });
    // The context of the replayed state with the texts of its closed rounds, read from their events.
    const texts = replayed && reply.context ? await this.agents.roundTexts(envelope.agentId, replayed) : new Map();
    if (replayed && texts.size > 0)
      reply.context = this.agents.withLocalPlans(envelope.agentId, contextOf(replayed, texts));
    return reply;
  }
}

const notFound = (agentId: string) =>
  new DomainError('not_found', { resource: 'agent', agent_id: agentId }, `agent ${agentId} not found`);
