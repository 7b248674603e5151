import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActivateAgentCommand, OperationRoles } from '@app/application';
import { ActivationDto, ApiReply } from '@app/contracts';
import { CallerHeaders, ClientGone, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

@ApiTags('scheduler')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id/activations')
export class ActivationsController {
  constructor(private readonly commands: CommandBus) {}

  @OperationRoles('Activate')
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'The agent host asks for the next action: one scheduler step; StartModelTurn opens a turn. With wait_ms, a ' +
      'long poll: answers the first step that opens a turn, or the last decision when wait_ms passes',
  })
  @ApiReply(200, 'ActivationReply', 'a repeated Idempotency-Key answers the turn it opened')
  activate(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: ActivationDto,
    @CallerHeaders() context: HttpCommandContext,
    @ClientGone() signal: AbortSignal,
  ) {
    return this.commands.execute(
      new ActivateAgentCommand(envelopeOf(agentId, context), {
        lease_ttl_ms: body.lease_ttl_ms,
        context_budget_tokens: body.context_budget,
        wait_ms: body.wait_ms,
        signal,
      }),
    );
  }
}
