import { CommandHandler, type ICommandHandler, Command } from '@nestjs/cqrs';
import { type ActivationReply, DomainError } from '@app/domain';
import type { CommandEnvelope, WithRevision } from '../agents/agent-command.service';
import { SchedulerStepService } from './scheduler-step.service';

export const DEFAULT_LEASE_TTL_MS = 60_000;

export interface ActivationInput {
  lease_ttl_ms?: number;
  context_budget_tokens?: number;
}

/** `POST activations`: the agent host asks what to do next; one scheduler step answers. */
export class ActivateAgentCommand extends Command<WithRevision<ActivationReply>> {
  constructor(readonly envelope: CommandEnvelope, readonly input: ActivationInput) {
    super();
  }
}

@CommandHandler(ActivateAgentCommand)
export class ActivateAgentHandler implements ICommandHandler<ActivateAgentCommand> {
  constructor(private readonly steps: SchedulerStepService) {}

  async execute({ envelope, input }: ActivateAgentCommand) {
    const result = await this.steps.step(envelope.agentId, {
      activation: { envelope, lease_ttl_ms: input.lease_ttl_ms ?? DEFAULT_LEASE_TTL_MS, context_budget_tokens: input.context_budget_tokens },
    });
    if (!result) throw new DomainError('not_found', { resource: 'agent', agent_id: envelope.agentId }, `agent ${envelope.agentId} not found`);
    return { ...result.reply, revision: result.revision };
  }
}
