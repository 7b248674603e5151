import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { type WhyNot, whyNot } from '@app/domain';
import { CLOCK, type Clock } from '@app/core';
import { POSTGRES_POOL, WORK_ITEM_QUERIES, type WorkItemQueries } from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import type { SqlReader } from '../audit/projections-admin';
import { notFound } from '../work-items/work-item.queries';
import { agentDeadLetter } from './agent-dead-letter';

/** `GET /v1/agents/{a}/work-items/{w}/why` (and gRPC GetWorkItemWhy): the domain's why-not view, now. */
export type WorkItemWhyReply = WhyNot & { agent_id: string };

export class GetWorkItemWhyQuery extends Query<WorkItemWhyReply> {
  constructor(
    readonly agentId: string,
    readonly workItemId: string,
  ) {
    super();
  }
}

/**
 * Folds the agent (consistent: the aggregate, as `GET state`'s next_decision) and asks the
 * domain at the clock's now, with the two facts the stream does not hold: the agent's open dead
 * letter, and, for an item the live state lacks, whether the read model keeps it as archived.
 */
@QueryHandler(GetWorkItemWhyQuery)
export class GetWorkItemWhyHandler implements IQueryHandler<GetWorkItemWhyQuery> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(WORK_ITEM_QUERIES) private readonly workItems: WorkItemQueries,
    @Inject(POSTGRES_POOL) private readonly sql: SqlReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ agentId, workItemId }: GetWorkItemWhyQuery): Promise<WorkItemWhyReply> {
    const { state } = await this.agents.load(agentId);
    if (state.agent_id === null) throw notFound('agent', agentId);
    const archived = state.work_items.has(workItemId)
      ? false
      : (await this.workItems.get(agentId, workItemId))?.archived === true;
    const dead_letter = await agentDeadLetter(this.sql, agentId);
    const view = whyNot(state, workItemId, this.clock.now().toISOString(), { dead_letter, archived });
    if (view === null) throw notFound('work_item', workItemId);
    return { agent_id: agentId, ...view };
  }
}
