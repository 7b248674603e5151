import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListDelegationsQuery, OperationRoles, ReadRoles, SpawnAgentCommand, StoreRead } from '@app/application';
import { ApiErrors, ApiReply, SpawnAgentDto } from '@app/contracts';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

@ApiTags('delegation')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id')
export class DelegationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @OperationRoles('SpawnAgent')
  @Post('spawn')
  @ApiOperation({
    summary:
      "SpawnAgent (201): a private child serving a delegation of the parent's item, or an independent public agent",
  })
  @ApiReply(201, 'SpawnAgentReply')
  @ApiErrors({
    400: 'validation_failed (initial_message missing for private_child, ...); work_item_required: no work_item_id and no focus',
    404: 'not_found: unknown parent agent or work item',
    409: 'conflict: the child agent_id is taken (details.reason: already_exists); agent_stopped: the parent is stopped',
    422: 'invariant_violated: the delegating item is completed; idempotency_key_reused',
  })
  spawn(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: SpawnAgentDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new SpawnAgentCommand(envelopeOf(agentId, context, expected_revision), input));
  }

  @ReadRoles()
  @StoreRead()
  @Get('delegations')
  @ApiOperation({
    summary:
      'ListDelegations: the children this agent delegated to and the parent it works for, with state and the flag',
  })
  @ApiReply(200, 'DelegationList', "read from both agents' streams: min_position is accepted and always met")
  @ApiErrors({ 404: 'not_found: unknown agent' })
  list(@Param('agent_id', IdParamPipe) agentId: string) {
    return this.queries.execute(new ListDelegationsQuery(agentId));
  }
}
