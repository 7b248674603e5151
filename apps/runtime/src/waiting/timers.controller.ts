import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CancelTimerCommand,
  CreateTimerCommand,
  ListTimersQuery,
  SubmitWakeHintCommand,
  ReadRoles,
  OperationRoles,
} from '@app/application';
import {
  ExpectedRevisionDto,
  parseLimit,
  CreateTimerDto,
  ListTimersQueryDto,
  WakeHintDto,
  ApiErrors,
  ApiReply,
} from '@app/contracts';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

/** What wakes an agent besides messages: timers and wake hints. */
@ApiTags('waiting-plane')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id')
export class TimersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @OperationRoles('CreateTimer')
  @Post('timers')
  @ApiOperation({ summary: 'CreateTimer (201): fire_at or duration_ms, optional interval_ms' })
  @ApiReply(201, 'TimerReply', 'warning timer_already_due when it is due at once')
  @ApiErrors({
    400: 'validation_failed: both or neither of fire_at and duration_ms, or another malformed field',
    404: 'not_found: unknown agent or work item',
    422: 'invariant_violated: the work item is completed; idempotency_key_reused',
  })
  create(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: CreateTimerDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new CreateTimerCommand(envelopeOf(agentId, context, expected_revision), input));
  }

  @ReadRoles()
  @Get('timers')
  @ApiOperation({ summary: 'ListTimers: soonest first, with `due` against the server clock' })
  @ApiReply(200, 'TimerList', 'soonest first, each with `due` against the server clock')
  list(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListTimersQueryDto) {
    return this.queries.execute(new ListTimersQuery(agentId, { status: query.status, limit: parseLimit(query.limit) }));
  }

  @OperationRoles('CancelTimer')
  @Delete('timers/:timer_id')
  @ApiOperation({ summary: 'CancelTimer (idempotent)' })
  @ApiReply(200, 'CancelTimerReply', 'idempotent: cancelled is false when it was not scheduled')
  @ApiErrors({ 404: 'not_found: unknown agent or timer' })
  cancel(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('timer_id', IdParamPipe) timerId: string,
    @Body() body: ExpectedRevisionDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(new CancelTimerCommand(envelopeOf(agentId, context, body.expected_revision), timerId));
  }

  @OperationRoles('SubmitWakeHint')
  @Post('wake-hints')
  @HttpCode(202)
  @ApiOperation({ summary: 'SubmitWakeHint (202 with disposition: triggered, coalesced or ignored)' })
  @ApiReply(202, 'WakeHintReply')
  wakeHint(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: WakeHintDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new SubmitWakeHintCommand(envelopeOf(agentId, context, expected_revision), input));
  }
}
