import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  GetContextQuery,
  GetSchedulerStateQuery,
  ListBriefsQuery,
  ListDecisionsQuery,
  ListDeliverySummariesQuery,
  ReadRoles,
  StoreRead,
} from '@app/application';
import {
  ContextQueryDto,
  ListBriefsQueryDto,
  ListDecisionsQueryDto,
  ListDeliverySummariesQueryDto,
  parseBudget,
  parseLimit,
  ApiErrors,
  ApiReply,
} from '@app/contracts';
import { IdParamPipe } from '../http-envelope';

@ApiTags('scheduler')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id')
export class SchedulerQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @ReadRoles()
  @Get('state')
  @ApiOperation({
    summary: 'The scheduler_state read model, next_decision (computed now on the aggregate) and projection_lag',
  })
  @ApiReply(200, 'SchedulerState')
  @ApiErrors({ 404: 'not_found: unknown agent' })
  state(@Param('agent_id', IdParamPipe) agentId: string) {
    return this.queries.execute(new GetSchedulerStateQuery(agentId));
  }

  @ReadRoles()
  @StoreRead()
  @Get('context')
  @ApiOperation({
    summary: 'The layered context projection within a token budget (consistent: read from the aggregate)',
  })
  @ApiReply(200, 'ContextProjection')
  @ApiErrors({ 404: 'not_found: unknown agent' })
  context(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ContextQueryDto) {
    return this.queries.execute(new GetContextQuery(agentId, parseBudget(query.budget)));
  }

  @ReadRoles()
  @Get('decisions')
  @ApiOperation({ summary: 'Recorded scheduler decisions, newest first' })
  @ApiReply(200, 'DecisionList', 'recorded decisions, newest first')
  decisions(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListDecisionsQueryDto) {
    return this.queries.execute(new ListDecisionsQuery(agentId, parseLimit(query.limit)));
  }

  @ReadRoles()
  @Get('briefs')
  @ApiOperation({ summary: 'Briefs (ack, result, failure), newest first' })
  @ApiReply(200, 'BriefList', 'newest first')
  briefs(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListBriefsQueryDto) {
    const { kind, work_item_id, limit } = query;
    return this.queries.execute(new ListBriefsQuery(agentId, { kind, work_item_id, limit: parseLimit(limit) }));
  }

  @ReadRoles()
  @Get('delivery-summaries')
  @ApiOperation({ summary: 'Delivery summaries (promoted completion reports with their evidence), newest first' })
  @ApiReply(200, 'DeliverySummaryList', 'newest first')
  deliverySummaries(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListDeliverySummariesQueryDto) {
    return this.queries.execute(
      new ListDeliverySummariesQuery(agentId, { work_item_id: query.work_item_id, limit: parseLimit(query.limit) }),
    );
  }
}
