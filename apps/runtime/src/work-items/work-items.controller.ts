import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  CompleteWorkItemCommand,
  CreateWorkItemCommand,
  PickWorkItemCommand,
  ReplacePlanCommand,
  UpdateWorkItemCommand,
  GetWorkItemQuery,
  GetWorkItemWhyQuery,
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
  ApiErrors,
  ApiReply,
  ApiTextReply,
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
  @ApiReply(201, 'WorkItemReply')
  @ApiErrors({
    409: 'conflict: the work_item_id is taken (details.reason: already_exists), or a stale expected_revision',
  })
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
  @ApiReply(
    200,
    'WorkItemList',
    'work item views: queued and triggered in ranking order, the rest most recently updated first',
  )
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
  @ApiReply(200, 'WorkItem')
  @ApiErrors({ 404: 'not_found: unknown agent or work item' })
  get(@Param('agent_id', IdParamPipe) agentId: string, @Param('work_item_id', IdParamPipe) workItemId: string) {
    return this.queries.execute(new GetWorkItemQuery(agentId, workItemId));
  }

  @ReadRoles()
  @Get(':work_item_id/why')
  @ApiOperation({
    summary:
      'Why (not) next: where the item stands in the scheduler ladder, what ranks before it, what holds it, which event would make it next (computed now on the aggregate)',
  })
  @ApiReply(200, 'WorkItemWhy')
  @ApiErrors({ 404: 'not_found: unknown agent or work item (an archived item answers verdict archived)' })
  why(@Param('agent_id', IdParamPipe) agentId: string, @Param('work_item_id', IdParamPipe) workItemId: string) {
    return this.queries.execute(new GetWorkItemWhyQuery(agentId, workItemId));
  }

  @OperationRoles('UpdateWorkItem')
  @Patch(':work_item_id')
  @ApiOperation({ summary: 'UpdateWorkItem; blocked_by: null clears the blocker' })
  @ApiReply(200, 'UpdateWorkItemReply')
  @ApiErrors({
    404: 'not_found: unknown agent or work item',
    422: 'invariant_violated: the item is completed; idempotency_key_reused',
  })
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
  @ApiReply(200, 'PickWorkItemReply')
  @ApiErrors({
    404: 'not_found: unknown agent or work item',
    422: 'invariant_violated: the item is completed; idempotency_key_reused',
  })
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
  @ApiReply(200, 'CompleteWorkItemReply')
  @ApiErrors({ 404: 'not_found: unknown agent or work item' })
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
  @ApiOperation({ summary: 'Read the plan artifact body (or, with ?version=<hash>, a recorded version)' })
  @ApiQuery({
    name: 'version',
    required: false,
    description: 'a `sha256:<hex>` hash from plan/versions: that recorded version',
    schema: { type: 'string' },
  })
  @ApiTextReply('text/markdown', 'the plan body (empty when the file is); with `version`, that recorded version')
  @ApiErrors({ 404: 'not_found: unknown agent or work item, or a version the item events never recorded' })
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
  @ApiReply(200, 'PlanVersionList')
  @ApiErrors({ 404: 'not_found: unknown agent or work item' })
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
  @ApiReply(200, 'UpdateWorkItemReply', 'records PlanArtifactRefreshed when the bytes changed')
  @ApiErrors({
    404: 'not_found: unknown agent or work item',
    415: 'unsupported_media_type: send text/markdown or text/plain',
    422: 'invariant_violated: the item is completed; idempotency_key_reused',
  })
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
