import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type ArchiveWorkItems,
  type ArchiveWorkItemsReply,
  type CreateWorkItem,
  DomainError,
  renderArchiveWorkItemsReply,
} from '@app/domain';
import { WORK_ITEM_QUERIES, type WorkItemQueries } from '@app/read-models';
import { AgentCommandService, type CommandEnvelope, type WithRevision } from '../agents/agent-command.service';

/** `POST /v1/admin/agents/{a}/archive` (admin only): WorkItemsArchived with the caller's cut-off. */
export class ArchiveWorkItemsCommand extends Command<WithRevision<ArchiveWorkItemsReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly completedBefore: string,
  ) {
    super();
  }
}

@CommandHandler(ArchiveWorkItemsCommand)
export class ArchiveWorkItemsHandler implements ICommandHandler<ArchiveWorkItemsCommand> {
  constructor(private readonly agents: AgentCommandService) {}

  execute({ envelope, completedBefore }: ArchiveWorkItemsCommand) {
    const command: ArchiveWorkItems = {
      type: 'ArchiveWorkItems',
      data: { completed_before: completedBefore },
      meta: this.agents.meta(envelope),
    };
    return this.agents.run(envelope, command, renderArchiveWorkItemsReply);
  }
}

/**
 * An archived item has left the live state, so the decider alone would let its id be created
 * again: the read model's row (work_items' key, never deleted) keeps it reserved
 * (docs/decisions/0034). A row for an id the live state lacks is an archived item (or one whose
 * archive the read model has not applied yet): 409 as for a live id. A repeat of the request
 * that created the id answers as before.
 */
@Injectable()
export class ArchivedWorkItemIds {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(WORK_ITEM_QUERIES) private readonly queries: WorkItemQueries,
  ) {}

  async refuseReuse(envelope: CommandEnvelope, command: CreateWorkItem): Promise<void> {
    const id = command.data.work_item_id;
    const { state } = await this.agents.load(envelope.agentId);
    if (state.agent_id === null || state.work_items.has(id)) return; // the decider answers these
    if (!(await this.queries.exists(envelope.agentId, id))) return;
    if (await this.agents.isRepeat(envelope, command)) return;
    throw new DomainError(
      'already_exists',
      { resource: 'work_item', work_item_id: id, archived: true },
      `work item ${id} already exists (archived)`,
    );
  }
}
