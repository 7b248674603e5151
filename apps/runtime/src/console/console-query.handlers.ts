import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/domain';
import {
  AGENT_EVENTS_READER,
  type AgentEventItem,
  type AgentEventsReader,
  APPLICATION_SETTINGS,
  type ApplicationSettings,
  EVENTS_PAGE_MAX,
  withLocalPlanPaths,
} from '@app/application';
import { clampConsoleLimit, CONSOLE_QUERIES, type ConsoleQueries } from '@app/read-models';
import { GetBoardQuery, GetWorkItemHistoryQuery, ListAgentsQuery, ListAttentionQuery } from './console.queries';
import { WorkItemHistoryFilter } from './work-item-history';

export const BOARD_PER_CLASS_DEFAULT = 20;
export const HISTORY_DEFAULT = 200;
export const HISTORY_MAX = 1000;

/** Work item views name their plan file under this replica's AGENT_HOME (the read model holds only relative paths). */
const localPlans = <T>(settings: ApplicationSettings | undefined, value: T): T =>
  settings ? withLocalPlanPaths(value, settings.agentHome) : value;

@QueryHandler(ListAgentsQuery)
export class ListAgentsHandler implements IQueryHandler<ListAgentsQuery> {
  constructor(@Inject(CONSOLE_QUERIES) private readonly queries: ConsoleQueries) {}

  execute({ scope, limit }: ListAgentsQuery) {
    return this.queries.agents(scope, limit);
  }
}

@QueryHandler(ListAttentionQuery)
export class ListAttentionHandler implements IQueryHandler<ListAttentionQuery> {
  constructor(
    @Inject(CONSOLE_QUERIES) private readonly queries: ConsoleQueries,
    @Optional() @Inject(APPLICATION_SETTINGS) private readonly settings?: ApplicationSettings,
  ) {}

  async execute({ scope, limit }: ListAttentionQuery) {
    return localPlans(this.settings, await this.queries.attention(scope, limit));
  }
}

@QueryHandler(GetBoardQuery)
export class GetBoardHandler implements IQueryHandler<GetBoardQuery> {
  constructor(
    @Inject(CONSOLE_QUERIES) private readonly queries: ConsoleQueries,
    @Optional() @Inject(APPLICATION_SETTINGS) private readonly settings?: ApplicationSettings,
  ) {}

  async execute({ agentId, perClass }: GetBoardQuery) {
    const board = await this.queries.board(agentId, clampConsoleLimit(perClass, BOARD_PER_CLASS_DEFAULT, 100));
    if (!board) throw new DomainError('not_found', { resource: 'agent', id: agentId }, `agent ${agentId} not found`);
    return localPlans(this.settings, board);
  }
}

/** The item's history is its events: read from the agent's stream (the audit reader), page by page. */
@QueryHandler(GetWorkItemHistoryQuery)
export class GetWorkItemHistoryHandler implements IQueryHandler<GetWorkItemHistoryQuery> {
  constructor(@Inject(AGENT_EVENTS_READER) private readonly reader: AgentEventsReader) {}

  async execute({ agentId, workItemId, limit }: GetWorkItemHistoryQuery) {
    const filter = new WorkItemHistoryFilter(workItemId);
    const keep = clampConsoleLimit(limit, HISTORY_DEFAULT, HISTORY_MAX);
    const matches: AgentEventItem[] = [];
    for (let after: bigint | null = null; ;) {
      const page = await this.reader.page(agentId, after, EVENTS_PAGE_MAX);
      for (const event of page.items) {
        if (filter.accepts(event)) matches.push(event);
      }
      if (page.items.length < EVENTS_PAGE_MAX || page.next_after === null) break;
      after = BigInt(page.next_after);
    }
    if (matches.length === 0)
      throw new DomainError(
        'not_found',
        { resource: 'work_item', id: workItemId },
        `work_item ${workItemId} not found`,
      );
    return { items: matches.slice(-keep), total: matches.length };
  }
}

export const CONSOLE_QUERY_HANDLERS = [
  ListAgentsHandler,
  ListAttentionHandler,
  GetBoardHandler,
  GetWorkItemHistoryHandler,
];
