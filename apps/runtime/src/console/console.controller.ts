import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiReply } from '@app/contracts';
import { type Caller, CurrentCaller, ReadRoles, StoreRead } from '@app/application';
import { ApiError } from '@app/core';
import type { AgentScope } from '@app/read-models';
import { IdParamPipe } from '../http-envelope';
import { BoardQueryDto, ConsoleListQueryDto, HistoryQueryDto, optionalInt } from './console.dto';
import { GetBoardQuery, GetWorkItemHistoryQuery, ListAgentsQuery, ListAttentionQuery } from './console.queries';

function scopeOf(caller: Caller | null): AgentScope {
  if (!caller) throw new ApiError('unauthorized', 'a bearer token is required');
  return caller.admin ? { all: true } : { all: false, agent_ids: caller.agents };
}

/** Reads the operator console needs that span agents or read models (the rest are the API's own routes). */
@ApiTags('console')
@ApiBearerAuth()
@Controller('v1')
export class ConsoleController {
  constructor(private readonly queries: QueryBus) {}

  @ReadRoles()
  @Get('agents')
  @ApiOperation({
    summary:
      'The agents this token may see (admin: all), by id: posture, focus, counts per candidate class, last decision',
  })
  @ApiReply(200, 'AgentOverviewList', 'the agents this token may see (admin: all), by id')
  agents(@CurrentCaller() caller: Caller | null, @Query() query: ConsoleListQueryDto) {
    return this.queries.execute(new ListAgentsQuery(scopeOf(caller), optionalInt(query.limit)));
  }

  @ReadRoles()
  @Get('attention')
  @ApiOperation({ summary: "Open work items waiting for an operator across this token's agents, oldest wait first" })
  @ApiReply(200, 'AttentionList', 'oldest wait first')
  attention(@CurrentCaller() caller: Caller | null, @Query() query: ConsoleListQueryDto) {
    return this.queries.execute(new ListAttentionQuery(scopeOf(caller), optionalInt(query.limit)));
  }

  @ReadRoles()
  @Get('agents/:agent_id/board')
  @ApiOperation({
    summary: 'Candidate classes in scheduler order, each with its total and first items (ranking order)',
  })
  @ApiReply(200, 'AgentBoard')
  @ApiErrors({ 404: 'not_found: unknown agent' })
  board(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: BoardQueryDto) {
    return this.queries.execute(new GetBoardQuery(agentId, optionalInt(query.per_class)));
  }

  @ReadRoles()
  @StoreRead()
  @Get('agents/:agent_id/work-items/:work_item_id/history')
  @ApiOperation({
    summary:
      "A work item's events (and its intents', tasks', messages', turns' and timers'), oldest first, with metadata.actor",
  })
  @ApiReply(200, 'WorkItemHistory', 'oldest first: the newest `limit` events')
  @ApiErrors({ 404: 'not_found: unknown agent or work item' })
  history(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
    @Query() query: HistoryQueryDto,
  ) {
    return this.queries.execute(new GetWorkItemHistoryQuery(agentId, workItemId, optionalInt(query.limit)));
  }
}
