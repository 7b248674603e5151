import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { clampListLimit, DomainError, type WorkItemQueryFilter, type WorkItemView } from '@app/domain';
import { ApiError } from '@app/core';
import { type AgentSummary, WORK_ITEM_QUERIES, type WorkItemQueries } from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import { PLAN_STORE, type PlanArtifactStore } from '../plans/plan-artifact.store';
import { localPlanArtifact } from '../plans/plan-paths';

export class GetAgentQuery extends Query<AgentSummary> {
  constructor(readonly agentId: string) {
    super();
  }
}

export class GetWorkItemQuery extends Query<WorkItemView> {
  constructor(
    readonly agentId: string,
    readonly workItemId: string,
  ) {
    super();
  }
}

export class ListWorkItemsQuery extends Query<{ items: WorkItemView[]; total: number }> {
  constructor(
    readonly agentId: string,
    readonly filter: WorkItemQueryFilter,
    readonly limit?: number,
  ) {
    super();
  }
}

export class ReadPlanQuery extends Query<string> {
  constructor(
    readonly agentId: string,
    readonly workItemId: string,
  ) {
    super();
  }
}

/** A `not_found` refusal naming the resource and its id (the reads of items, agents and plans). */
export const notFound = (resource: string, id: string) =>
  new DomainError('not_found', { resource, id }, `${resource} ${id} not found`);

@QueryHandler(GetAgentQuery)
export class GetAgentHandler implements IQueryHandler<GetAgentQuery> {
  constructor(@Inject(WORK_ITEM_QUERIES) private readonly queries: WorkItemQueries) {}

  async execute({ agentId }: GetAgentQuery) {
    const agent = await this.queries.agent(agentId);
    if (!agent) throw notFound('agent', agentId);
    return agent;
  }
}

/**
 * Reads refresh the plan descriptor from the file: the file is the working copy, an edit by hand
 * shows at once (a missing file is restored from the stored body first). The view's `path` is
 * always the file under this replica's AGENT_HOME (events hold only `relative_path`; views stored
 * by older code hold the path of the replica that recorded them).
 */
async function withFreshPlan(plans: PlanArtifactStore, view: WorkItemView): Promise<WorkItemView> {
  // A plan that is nowhere (409 plan_missing on its read) keeps its recorded descriptor here: never an empty one.
  const fresh = await plans.describe(view.agent_id, view.id, view.plan_artifact).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'plan_missing') return view.plan_artifact;
    throw error;
  });
  const plan = fresh.hash === view.plan_artifact.hash ? view.plan_artifact : fresh;
  return { ...view, plan_artifact: localPlanArtifact(plan, plans.root, view.agent_id, view.id) };
}

@QueryHandler(GetWorkItemQuery)
export class GetWorkItemHandler implements IQueryHandler<GetWorkItemQuery> {
  constructor(
    @Inject(WORK_ITEM_QUERIES) private readonly queries: WorkItemQueries,
    @Inject(PLAN_STORE) private readonly plans: PlanArtifactStore,
  ) {}

  async execute({ agentId, workItemId }: GetWorkItemQuery) {
    const view = await this.queries.get(agentId, workItemId);
    if (!view) throw notFound('work_item', workItemId);
    return withFreshPlan(this.plans, view);
  }
}

@QueryHandler(ListWorkItemsQuery)
export class ListWorkItemsHandler implements IQueryHandler<ListWorkItemsQuery> {
  constructor(
    @Inject(WORK_ITEM_QUERIES) private readonly queries: WorkItemQueries,
    @Inject(PLAN_STORE) private readonly plans: PlanArtifactStore,
  ) {}

  async execute({ agentId, filter, limit }: ListWorkItemsQuery) {
    const list = await this.queries.list(agentId, filter, clampListLimit(limit));
    return { items: await Promise.all(list.items.map((view) => withFreshPlan(this.plans, view))), total: list.total };
  }
}

/** The plan body is read right after a write by hosts without the agent home: check the aggregate, not the (lagging) read model. */
@QueryHandler(ReadPlanQuery)
export class ReadPlanHandler implements IQueryHandler<ReadPlanQuery> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(PLAN_STORE) private readonly plans: PlanArtifactStore,
  ) {}

  async execute({ agentId, workItemId }: ReadPlanQuery) {
    const { state } = await this.agents.load(agentId);
    const item = state.work_items.get(workItemId);
    if (!item) throw notFound('work_item', workItemId);
    return (await this.plans.read(agentId, workItemId, item.plan_artifact)) ?? '';
  }
}

export const WORK_ITEM_QUERY_HANDLERS = [GetAgentHandler, GetWorkItemHandler, ListWorkItemsHandler, ReadPlanHandler];
