import { CommandHandler, type ICommandHandler, Command } from '@nestjs/cqrs';
import {
  type ActivationReply,
  contextProjection,
  decideNextAction,
  DomainError,
  renderActivationReply,
  type StartTurn,
  turnView,
} from '@app/domain';
import { AgentCommandService, type CommandEnvelope, type WithRevision } from '../agents/agent-command.service';
import { activationTurnId, SchedulerStepService } from './scheduler-step.service';

export const DEFAULT_LEASE_TTL_MS = 60_000;

export interface ActivationInput {
  lease_ttl_ms?: number;
  context_budget_tokens?: number;
}

/** `POST activations`: the agent host asks what to do next; one scheduler step answers. */
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
  ) {}

  async execute({ envelope, input }: ActivateAgentCommand) {
    const leaseTtlMs = input.lease_ttl_ms ?? DEFAULT_LEASE_TTL_MS;
    const repeated = await this.repeatedActivation(envelope, leaseTtlMs, input.context_budget_tokens);
    if (repeated) return repeated;
    const result = await this.steps.step(envelope.agentId, {
      activation: { envelope, lease_ttl_ms: leaseTtlMs, context_budget_tokens: input.context_budget_tokens },
    });
    if (!result)
      throw new DomainError(
        'not_found',
        { resource: 'agent', agent_id: envelope.agentId },
        `agent ${envelope.agentId} not found`,
      );
    return {
      ...this.agents.withLocalPlans(envelope.agentId, result.reply),
      revision: result.revision,
      position: result.position,
    };
  }

  /**
   * A repeated Idempotency-Key whose activation opened a turn answers the first reply and steps
   * nothing: the repository replays that StartTurn (its state before and after), and the decision
   * is the one the aggregate accepted for it, recomputed on the state before it at the turn's start.
   * (An activation that opened no turn appended nothing under its key: it simply runs again.)
   */
  private async repeatedActivation(envelope: CommandEnvelope, leaseTtlMs: number, budgetTokens?: number) {
    if (!envelope.idempotencyKey) return null;
    const turnId = activationTurnId(envelope.agentId, envelope.idempotencyKey);
    const turn = turnView((await this.agents.load(envelope.agentId)).state, turnId);
    if (turn === null) return null;
    const data = { turn_id: turnId, message_id: turn.message_id, lease_ttl_ms: leaseTtlMs };
    const command: StartTurn = { type: 'StartTurn', data, meta: this.agents.meta(envelope) };
    return this.agents.run(envelope, command, (_command, before, after) =>
      renderActivationReply({
        decision: decideNextAction(before, turn.started_at),
        recorded_at: turn.started_at,
        after,
        turn_id: turnId,
        context: contextProjection(after, { budget_tokens: budgetTokens }),
      }),
    );
  }
}
