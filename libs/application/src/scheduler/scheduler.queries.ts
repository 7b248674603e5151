import { Query } from '@nestjs/cqrs';
import type {
  BriefListQuery,
  BriefView,
  ContextProjection,
  DecisionView,
  DeliverySummaryView,
  ListReply,
} from '@app/domain';
import type { DecisionItem, DeliverySummaryListQuery, SchedulerStateView } from '@app/read-models';

/** How far the read models are behind the store (positions as decimal strings). */
export type ProjectionLag = { checkpoint: string; head: string | null; caught_up: boolean };

/** `GET state`: the stored scheduler_state, the decision the scheduler would take now, and the read models' lag. */
export type SchedulerStateReply = SchedulerStateView & { next_decision: DecisionView; projection_lag: ProjectionLag };

export class GetSchedulerStateQuery extends Query<SchedulerStateReply> {
  constructor(readonly agentId: string) {
    super();
  }
}

/** `GET context?budget=N`: the layered context projection of the agent as it is now (the aggregate, not a read model). */
export class GetContextQuery extends Query<ContextProjection> {
  constructor(
    readonly agentId: string,
    readonly budgetTokens?: number,
  ) {
    super();
  }
}

/** `GET decisions?limit=N`: recorded decisions, newest first. */
export class ListDecisionsQuery extends Query<ListReply<DecisionItem>> {
  constructor(
    readonly agentId: string,
    readonly limit?: number,
  ) {
    super();
  }
}

export class ListBriefsQuery extends Query<ListReply<BriefView>> {
  constructor(
    readonly agentId: string,
    readonly query: BriefListQuery,
  ) {
    super();
  }
}

export class ListDeliverySummariesQuery extends Query<ListReply<DeliverySummaryView>> {
  constructor(
    readonly agentId: string,
    readonly query: DeliverySummaryListQuery,
  ) {
    super();
  }
}
