import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { ListReply, WaitingIntentListQuery, WaitingIntentView } from '@app/domain';
import { RECORD_QUERIES, type RecordQueries } from '@app/read-models';

/** GET waiting-intents: newest first, by status and item (the read model; never the token or its hash). */
export class ListWaitingIntentsQuery extends Query<ListReply<WaitingIntentView>> {
  constructor(
    readonly agentId: string,
    readonly query: WaitingIntentListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListWaitingIntentsQuery)
export class ListWaitingIntentsHandler implements IQueryHandler<ListWaitingIntentsQuery> {
  constructor(@Inject(RECORD_QUERIES) private readonly records: RecordQueries) {}

  execute({ agentId, query }: ListWaitingIntentsQuery) {
    return this.records.waitingIntents(agentId, query);
  }
}
