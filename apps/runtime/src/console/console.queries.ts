import { Query } from '@nestjs/cqrs';
import type { AgentEventItem } from '@app/application';
import type { AgentBoard, AgentOverview, AgentScope, AttentionItem } from '@app/read-models';

/** `GET /v1/agents`: the agents the caller may see (admin: all), each with its headline. */
export class ListAgentsQuery extends Query<{ items: AgentOverview[]; total: number }> {
  constructor(
    readonly scope: AgentScope,
    readonly limit?: number,
  ) {
    super();
  }
}

/** `GET /v1/attention`: open items waiting for an operator across the caller's agents, oldest wait first. */
export class ListAttentionQuery extends Query<{ items: AttentionItem[]; total: number }> {
  constructor(
    readonly scope: AgentScope,
    readonly limit?: number,
  ) {
    super();
  }
}

/** `GET /v1/agents/{a}/board`: candidate classes in scheduler order with their first items. */
export class GetBoardQuery extends Query<AgentBoard> {
  constructor(
    readonly agentId: string,
    readonly perClass?: number,
  ) {
    super();
  }
}

/** Events of one work item, oldest first (the last `limit` of them); `total` counts every match. */
export type WorkItemHistory = { items: AgentEventItem[]; total: number };

/** `GET /v1/agents/{a}/work-items/{w}/history`: every event about the item (and its intents, tasks, messages, turns, timers). */
export class GetWorkItemHistoryQuery extends Query<WorkItemHistory> {
  constructor(
    readonly agentId: string,
    readonly workItemId: string,
    readonly limit?: number,
  ) {
    super();
  }
}
