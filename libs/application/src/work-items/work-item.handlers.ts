import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type CreateWorkItem,
  type UpdateWorkItem,
  renderCompleteWorkItemReply,
  renderCreateWorkItemReply,
  renderPickWorkItemReply,
  renderRegisterAgentReply,
  renderUpdateWorkItemReply,
} from '@app/domain';
import { AgentCommandService, generatedWorkItemId } from '../agents/agent-command.service';
import { ArchivedWorkItemIds } from '../archive/archive.handler';
import { PLAN_STORE, type PlanArtifactStore } from '../plans/plan-artifact.store';
import {
  CompleteWorkItemCommand,
  CreateWorkItemCommand,
  PickWorkItemCommand,
  RegisterAgentCommand,
  ReplacePlanCommand,
  UpdateWorkItemCommand,
} from './work-item.commands';

@CommandHandler(RegisterAgentCommand)
export class RegisterAgentHandler implements ICommandHandler<RegisterAgentCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope }: RegisterAgentCommand) {
    const command = {
      type: 'RegisterAgent' as const,
      data: { agent_id: envelope.agentId },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, renderRegisterAgentReply);
  }
}

@CommandHandler(CreateWorkItemCommand)
export class CreateWorkItemHandler implements ICommandHandler<CreateWorkItemCommand> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(PLAN_STORE) private readonly plans: PlanArtifactStore,
    private readonly archivedIds: ArchivedWorkItemIds,
  ) {}

  async execute({ envelope, input }: CreateWorkItemCommand) {
    const meta = this.agents.meta(envelope);
    const workItemId = input.work_item_id ?? generatedWorkItemId(envelope);
    const command = (plan_artifact: CreateWorkItem['data']['plan_artifact']): CreateWorkItem => ({
      type: 'CreateWorkItem',
      data: {
        work_item_id: workItemId,
        objective: input.objective,
        plan_status: input.plan_status,
        todo_list: input.todo_list,
        plan_artifact,
      },
      meta,
    });
    const planned = command(this.plans.descriptorOf(envelope.agentId, workItemId, input.plan ?? '', meta.now));
    await this.archivedIds.refuseReuse(envelope, planned);
    await this.agents.dryRun(envelope, planned);
    const artifact = await this.plans.create(envelope.agentId, workItemId, input.plan);
    return this.agents.run(envelope, command(artifact), renderCreateWorkItemReply);
  }
}

@CommandHandler(UpdateWorkItemCommand)
export class UpdateWorkItemHandler implements ICommandHandler<UpdateWorkItemCommand> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(PLAN_STORE) private readonly plans: PlanArtifactStore,
  ) {}

  async execute({ envelope, workItemId, input }: UpdateWorkItemCommand) {
    // A write command that sees a changed plan file records the refresh (docs/domain-contract.md §1). The
    // cached state is enough to know whether the item exists (the decision itself loads afresh).
    const state = this.agents.peek(envelope.agentId) ?? (await this.agents.load(envelope.agentId)).state;
    const item = state.work_items.get(workItemId);
    const plan_artifact = item
      ? await this.plans.describe(envelope.agentId, workItemId, item.plan_artifact)
      : undefined;
    const command: UpdateWorkItem = {
      type: 'UpdateWorkItem',
      data: { work_item_id: workItemId, ...input, plan_artifact },
      meta: this.agents.meta(envelope),
    };
    // The descriptor is the plan file as it is now, not part of the request.
    return this.agents.run(envelope, command, renderUpdateWorkItemReply, { unfingerprinted: ['plan_artifact'] });
  }
}

@CommandHandler(PickWorkItemCommand)
export class PickWorkItemHandler implements ICommandHandler<PickWorkItemCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, workItemId, reason }: PickWorkItemCommand) {
    const command = {
      type: 'PickWorkItem' as const,
      data: { work_item_id: workItemId, reason },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, renderPickWorkItemReply);
  }
}

@CommandHandler(CompleteWorkItemCommand)
export class CompleteWorkItemHandler implements ICommandHandler<CompleteWorkItemCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, workItemId, roundId }: CompleteWorkItemCommand) {
    const command = {
      type: 'CompleteWorkItem' as const,
      data: { work_item_id: workItemId, round_id: roundId },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, renderCompleteWorkItemReply);
  }
}

@CommandHandler(ReplacePlanCommand)
export class ReplacePlanHandler implements ICommandHandler<ReplacePlanCommand> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(PLAN_STORE) private readonly plans: PlanArtifactStore,
  ) {}

  async execute({ envelope, workItemId, body }: ReplacePlanCommand) {
    const meta = this.agents.meta(envelope);
    const command = (plan_artifact: UpdateWorkItem['data']['plan_artifact']): UpdateWorkItem => ({
      type: 'UpdateWorkItem',
      data: { work_item_id: workItemId, plan_artifact },
      meta,
    });
    await this.agents.dryRun(envelope, command(this.plans.descriptorOf(envelope.agentId, workItemId, body, meta.now)));
    const artifact = await this.plans.replace(envelope.agentId, workItemId, body);
    return this.agents.run(envelope, command(artifact), renderUpdateWorkItemReply);
  }
}

export const WORK_ITEM_COMMAND_HANDLERS = [
  RegisterAgentHandler,
  CreateWorkItemHandler,
  UpdateWorkItemHandler,
  PickWorkItemHandler,
  CompleteWorkItemHandler,
  ReplacePlanHandler,
];
