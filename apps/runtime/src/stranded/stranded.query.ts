import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { StrandedEntry, StrandedKind } from '@app/domain';
import { CLOCK, type Clock } from '@app/core';
import { APPLICATION_SETTINGS, type ApplicationSettings, strandedThresholds } from '@app/application';
import { type AgentScope, STRANDED_QUERIES, type StrandedQueries } from '@app/read-models';

/** `GET /v1/stranded`: the stranded work of the caller's agents (admin: all) at the server clock. */
export class ListStrandedQuery extends Query<{ items: StrandedEntry[]; total: number }> {
  constructor(
    readonly scope: AgentScope,
    readonly kind?: StrandedKind,
    readonly limit?: number,
  ) {
    super();
  }
}

@QueryHandler(ListStrandedQuery)
export class ListStrandedHandler implements IQueryHandler<ListStrandedQuery> {
  constructor(
    @Inject(STRANDED_QUERIES) private readonly queries: StrandedQueries,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(APPLICATION_SETTINGS) private readonly settings?: ApplicationSettings,
  ) {}

  execute({ scope, kind, limit }: ListStrandedQuery) {
    const now = this.clock.now().toISOString();
    return this.queries.list({ scope, now, thresholds: strandedThresholds(this.settings), kind, limit });
  }
}
