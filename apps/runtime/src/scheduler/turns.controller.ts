import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CloseRoundCommand,
  EndTurnCommand,
  RecordRoundCommand,
  TurnHeartbeatCommand,
  OperationRoles,
} from '@app/application';
import { CloseRoundDto, HeartbeatDto, RecordRoundDto, TurnTerminalDto, ApiErrors, ApiReply } from '@app/contracts';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

/** The agent host's side of a model turn opened by `POST activations`. */
@ApiTags('turns')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id/turns/:turn_id')
export class TurnsController {
  constructor(private readonly commands: CommandBus) {}

  @OperationRoles('Heartbeat')
  @Post('heartbeat')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Heartbeat: renews the lease; the reply hands over queued interject operator prompts (marked interjected)',
  })
  @ApiReply(200, 'TurnHeartbeatReply')
  @ApiErrors({
    404: 'not_found: unknown agent or turn',
    422: 'invariant_violated: the turn ended; idempotency_key_reused',
  })
  heartbeat(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('turn_id', IdParamPipe) turnId: string,
    @Body() body: HeartbeatDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new TurnHeartbeatCommand(envelopeOf(agentId, context, body.expected_revision), turnId, body.lease_ttl_ms),
    );
  }

  @OperationRoles('RecordRound')
  @Post('rounds')
  @HttpCode(200)
  @ApiOperation({ summary: 'RecordRound: an assistant round, before its tools run (closes the previous open round)' })
  @ApiReply(200, 'RecordRoundReply')
  @ApiErrors({
    404: 'not_found: unknown agent or turn',
    409: 'conflict: the round id is taken with other content, or a stale expected_revision; agent_stopped: the agent is stopped',
    422: 'invariant_violated: the turn ended; idempotency_key_reused',
  })
  round(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('turn_id', IdParamPipe) turnId: string,
    @Body() body: RecordRoundDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(
      new RecordRoundCommand(envelopeOf(agentId, context, expected_revision), turnId, input),
    );
  }

  @OperationRoles('CloseRound')
  @Post('rounds/:round_id/close')
  @HttpCode(200)
  @ApiOperation({ summary: 'CloseRound: evaluates report promotion once -> {promotion, warnings}' })
  @ApiReply(200, 'CloseRoundReply', 'the same when repeated')
  @ApiErrors({ 404: 'not_found: unknown agent, turn or round' })
  closeRound(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('turn_id', IdParamPipe) turnId: string,
    @Param('round_id', IdParamPipe) roundId: string,
    @Body() body: CloseRoundDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new CloseRoundCommand(envelopeOf(agentId, context, body.expected_revision), turnId, roundId),
    );
  }

  @OperationRoles('TurnTerminal')
  @Post('terminal')
  @HttpCode(200)
  @ApiOperation({ summary: 'TurnTerminal: closes the turn and its open round, settles its message, writes its brief' })
  @ApiReply(200, 'TurnTerminalReply')
  @ApiErrors({
    404: 'not_found: unknown agent or turn',
    422: 'invariant_violated: another terminal after one; idempotency_key_reused',
  })
  terminal(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('turn_id', IdParamPipe) turnId: string,
    @Body() body: TurnTerminalDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new EndTurnCommand(envelopeOf(agentId, context, expected_revision), turnId, input));
  }
}
