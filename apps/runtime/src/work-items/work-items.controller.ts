import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import {
  CompleteWorkItemCommand,
  CreateWorkItemCommand,
  PickWorkItemCommand,
  ReplacePlanCommand,
  UpdateWorkItemCommand,
  GetWorkItemQuery,
  ListWorkItemsQuery,
  ReadPlanQuery,
  ListPlanVersionsQuery,
  ReadPlanVersionQuery,
  ReadRoles,
  OperationRoles,
  StoreRead,
} from '@app/application';
import {
  CompleteWorkItemDto,
  CreateWorkItemDto,
  ListWorkItemsQueryDto,
  PickWorkItemDto,
  UpdateWorkItemDto,
} from '@app/contracts';
import { ApiError } from '@app/core';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

/** The work item tool surface of docs/domain-contract.md over HTTP. Thin: build the command, hand it over. */
@ApiTags('work-items')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id/work-items')
export class WorkItemsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @OperationRoles('CreateWorkItem')
  @Post()
  @ApiOperation({ summary: 'CreateWorkItem (201)' })
  create(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: CreateWorkItemDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new CreateWorkItemCommand(envelopeOf(agentId, context, expected_revision), input));
  }

  @ReadRoles()
  @Get()
  @ApiOperation({ summary: 'ListWorkItems' })
  list(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListWorkItemsQueryDto) {
    return this.queries.execute(
      new ListWorkItemsQuery(
        agentId,
        query.filter ?? 'all',
        query.limit === undefined ? undefined : Number(query.limit),
      ),
    );
  }

  @ReadRoles()
  @Get(':work_item_id')
  @ApiOperation({ summary: 'GetWorkItem' })
  get(@Param('agent_id', IdParamPipe) agentId: string, @Param('work_item_id', IdParamPipe) workItemId: string) {
    return this.queries.execute(new GetWorkItemQuery(agentId, workItemId));
  }

  @OperationRoles('UpdateWorkItem')
  @Patch(':work_item_id')
  @ApiOperation({ summary: 'UpdateWorkItem; blocked_by: null clears the blocker' })
  update(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
    @Body() body: UpdateWorkItemDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(
      new UpdateWorkItemCommand(envelopeOf(agentId, context, expected_revision), workItemId, input),
    );
  }

  @OperationRoles('PickWorkItem')
  @Post(':work_item_id/pick')
  @HttpCode(200)
  @ApiOperation({ summary: 'PickWorkItem' })
  pick(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
    @Body() body: PickWorkItemDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new PickWorkItemCommand(envelopeOf(agentId, context, body.expected_revision), workItemId, body.reason),
    );
  }

  @OperationRoles('CompleteWorkItem')
  @Post(':work_item_id/complete')
  @HttpCode(200)
  @ApiOperation({ summary: 'CompleteWorkItem' })
  complete(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
    @Body() body: CompleteWorkItemDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new CompleteWorkItemCommand(envelopeOf(agentId, context, body.expected_revision), workItemId, body.round_id),
    );
  }

  @ReadRoles()
  @StoreRead()
  @Get(':work_item_id/plan')
  @Header('content-type', 'text/markdown; charset=utf-8')
  @ApiProduces('text/markdown')
  @ApiOperation({ summary: 'Read the plan artifact body (or, with ?version=<hash>, a recorded version)' })
  readPlan(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
    @Query('version') version: unknown,
  ) {
    if (version === undefined) return this.queries.execute(new ReadPlanQuery(agentId, workItemId));
    if (typeof version !== 'string' || version === '')
      throw new ApiError('validation_failed', 'version: one sha256:<hex> hash', { field: 'version' });
    return this.queries.execute(new ReadPlanVersionQuery(agentId, workItemId, version));
  }

  @ReadRoles()
  @StoreRead()
  @Get(':work_item_id/plan/versions')
  @ApiOperation({ summary: "The plan's recorded versions, newest first" })
  planVersions(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
  ) {
    return this.queries.execute(new ListPlanVersionsQuery(agentId, workItemId));
  }

  @OperationRoles('ReplacePlan')
  @Put(':work_item_id/plan')
  @ApiConsumes('text/markdown', 'text/plain')
  @ApiBody({ schema: { type: 'string' } })
  @ApiOperation({ summary: 'Replace the plan artifact body (records PlanArtifactRefreshed)' })
  replacePlan(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
    @Body() body: unknown,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    if (typeof body !== 'string')
      throw new ApiError('unsupported_media_type', 'send the plan body as text/markdown or text/plain');
    return this.commands.execute(new ReplacePlanCommand(envelopeOf(agentId, context), workItemId, body));
  }
}
