import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type AgentState,
  closureOf,
  closureProjection,
  contextProjection,
  decideNextAction,
  DomainError,
  toDecisionView,
} from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CLOCK, type Clock } from '@app/core';
import {
  POSTGRES_POOL,
  READ_MODELS_PROJECTION,
  SCHEDULER_QUERIES,
  type SchedulerQueries,
  toSchedulerStateView,
} from '@app/read-models';
import { AgentCommandService } from '../agents/agent-command.service';
import { agentDeadLetter } from './agent-dead-letter';
import { projectionStatus, type SqlReader } from '../audit/projections-admin';
import {
  GetContextQuery,
  GetSchedulerStateQuery,
  ListBriefsQuery,
  ListDecisionsQuery,
  ListDeliverySummariesQuery,
  type ProjectionLag,
} from './scheduler.queries';
import { GetWorkItemWhyHandler } from './why-not.query';

/** The aggregate of a registered agent (consistent reads), or 404. */
async function registeredAgent(
  agents: AgentCommandService,
  agentId: string,
): Promise<{ state: AgentState; revision: bigint }> {
  const { state, revision } = await agents.load(agentId);
  if (state.agent_id === null)
    throw new DomainError('not_found', { resource: 'agent', agent_id: agentId }, `agent ${agentId} not found`);
  return { state, revision: revision ?? 0n };
}

/** The read models' checkpoint against the store's head. */
async function readModelsLag(sql: SqlReader, store: EventStore): Promise<ProjectionLag> {
  const status = (await projectionStatus(sql, store)).find((s) => s.name === READ_MODELS_PROJECTION);
  if (status)
    return { checkpoint: status.checkpoint, head: status.head, caught_up: status.lag === null || status.lag === '0' };
  const head = await store.headPosition();
  return { checkpoint: '-1', head: head?.toString() ?? null, caught_up: head === null };
}

/**
 * The stored row (the aggregate's projection while the projector has not written one yet), with
 * `next_decision` computed fresh on the aggregate at the clock's now, so it reflects due timers,
 * and the closure fields computed fresh on the aggregate too, with the agent's open dead letter
 * (a parked agent's row is not updated: its closure must still say `failed`).
 */
@QueryHandler(GetSchedulerStateQuery)
export class GetSchedulerStateHandler implements IQueryHandler<GetSchedulerStateQuery> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(SCHEDULER_QUERIES) private readonly queries: SchedulerQueries,
    @Inject(POSTGRES_POOL) private readonly sql: SqlReader,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ agentId }: GetSchedulerStateQuery) {
    const { state, revision } = await registeredAgent(this.agents, agentId);
    const now = this.clock.now().toISOString();
    const [stored, projection_lag, dead_letter] = await Promise.all([
      this.queries.state(agentId),
      readModelsLag(this.sql, this.store),
      agentDeadLetter(this.sql, agentId),
    ]);
    const view = stored ?? toSchedulerStateView(state, revision, now);
    const next_decision = toDecisionView(decideNextAction(state, now), now, closureOf(state, { dead_letter }));
    return { ...view, ...closureProjection(state, { dead_letter }), next_decision, projection_lag };
  }
}

@QueryHandler(GetContextQuery)
export class GetContextHandler implements IQueryHandler<GetContextQuery> {
  constructor(private readonly agents: AgentCommandService) {}

  async execute({ agentId, budgetTokens }: GetContextQuery) {
    const { state } = await registeredAgent(this.agents, agentId);
    const context = contextProjection(state, {
      budget_tokens: budgetTokens,
      reminders: this.agents.reminders,
      round_texts: await this.agents.roundTexts(agentId, state),
    });
    return this.agents.withLocalPlans(agentId, context);
  }
}

@QueryHandler(ListDecisionsQuery)
export class ListDecisionsHandler implements IQueryHandler<ListDecisionsQuery> {
  constructor(@Inject(SCHEDULER_QUERIES) private readonly queries: SchedulerQueries) {}

  execute({ agentId, limit }: ListDecisionsQuery) {
    return this.queries.decisions(agentId, limit);
  }
}

@QueryHandler(ListBriefsQuery)
export class ListBriefsHandler implements IQueryHandler<ListBriefsQuery> {
  constructor(@Inject(SCHEDULER_QUERIES) private readonly queries: SchedulerQueries) {}

  execute({ agentId, query }: ListBriefsQuery) {
    return this.queries.briefs(agentId, query);
  }
}

@QueryHandler(ListDeliverySummariesQuery)
export class ListDeliverySummariesHandler implements IQueryHandler<ListDeliverySummariesQuery> {
  constructor(@Inject(SCHEDULER_QUERIES) private readonly queries: SchedulerQueries) {}

  execute({ agentId, query }: ListDeliverySummariesQuery) {
    return this.queries.deliverySummaries(agentId, query);
  }
}

export const SCHEDULER_QUERY_HANDLERS = [
  GetSchedulerStateHandler,
  GetContextHandler,
  ListDecisionsHandler,
  ListBriefsHandler,
  ListDeliverySummariesHandler,
  GetWorkItemWhyHandler,
];
