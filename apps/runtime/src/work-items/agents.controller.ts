import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { canActOn, RegisterAgentCommand, GetAgentQuery, ReadRoles, OperationRoles } from '@app/application';
import { RegisterAgentDto, ApiErrors, ApiReply } from '@app/contracts';
import { ApiError } from '@app/core';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

@ApiTags('agents')
@ApiBearerAuth()
@Controller('v1/agents')
export class AgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @OperationRoles('RegisterAgent')
  @Post()
  @ApiOperation({ summary: 'Register an agent (201; an existing id is 409)' })
  @ApiReply(201, 'RegisterAgentReply')
  @ApiErrors({
    403: 'forbidden: the token does not name the agent_id of the body',
    409: 'conflict: the agent exists (details.reason: already_exists)',
  })
  register(@Body() body: RegisterAgentDto, @CallerHeaders() context: HttpCommandContext) {
    if (!canActOn(context.caller, body.agent_id))
      throw new ApiError('forbidden', 'this token may not act on that agent');
    return this.commands.execute(new RegisterAgentCommand(envelopeOf(body.agent_id, context)));
  }

  @ReadRoles()
  @Get(':agent_id')
  @ApiOperation({ summary: 'Agent summary: posture, focus and counts' })
  @ApiReply(200, 'AgentRead')
  @ApiErrors({ 404: 'not_found: unknown agent' })
  get(@Param('agent_id', IdParamPipe) agentId: string) {
    return this.queries.execute(new GetAgentQuery(agentId));
  }
}
