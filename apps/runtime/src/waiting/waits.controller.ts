import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CancelWaitingIntentCommand,
  TriggerWaitingIntentCommand,
  WaitForCommand,
  ListWaitingIntentsQuery,
  ReadRoles,
  OperationRoles,
} from '@app/application';
import {
  parseLimit,
  CancelWaitingIntentDto,
  ListWaitingIntentsQueryDto,
  TriggerWaitingIntentDto,
  WaitForDto,
  ApiErrors,
  ApiReply,
} from '@app/contracts';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

/** WaitFor (both scopes) and the waiting intents of an agent. Thin: build the command, hand it over. */
@ApiTags('waiting-plane')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id')
export class WaitsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @OperationRoles('WaitFor')
  @Post('work-items/:work_item_id/wait')
  @ApiOperation({
    summary: 'WaitFor on a work item (201): blocks it with the reason; callback_token once for external waits',
  })
  @ApiReply(201, 'WaitForReply', 'plus callback_token once for an external wait (a repeat answers without it)')
  @ApiErrors({
    404: 'not_found: unknown agent or work item',
    422: 'invariant_violated: the item is completed or the task already ended; idempotency_key_reused',
  })
  waitOnItem(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('work_item_id', IdParamPipe) workItemId: string,
    @Body() body: WaitForDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(
      new WaitForCommand(envelopeOf(agentId, context, expected_revision), workItemId, input),
    );
  }

  @OperationRoles('WaitFor')
  @Post('waits')
  @ApiOperation({ summary: 'WaitFor at agent scope (201): records the intent only' })
  @ApiReply(201, 'WaitForReply', 'work_item is null; plus callback_token once for an external wait')
  waitOnAgent(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: WaitForDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new WaitForCommand(envelopeOf(agentId, context, expected_revision), null, input));
  }

  @ReadRoles()
  @Get('waiting-intents')
  @ApiOperation({ summary: 'ListWaitingIntents: newest first, by status and work item' })
  @ApiReply(200, 'WaitingIntentList', 'newest first; never a token or its hash')
  list(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListWaitingIntentsQueryDto) {
    const { status, work_item_id, limit } = query;
    return this.queries.execute(
      new ListWaitingIntentsQuery(agentId, { status, work_item_id, limit: parseLimit(limit) }),
    );
  }

  @OperationRoles('CancelWaitingIntent')
  @Delete('waiting-intents/:intent_id')
  @ApiOperation({ summary: 'CancelWaitingIntent (idempotent; the blocker stays)' })
  @ApiReply(200, 'CancelWaitingIntentReply', 'cancelled: false when it had already ended; the blocker stays')
  @ApiErrors({ 404: 'not_found: unknown agent or intent' })
  cancel(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('intent_id', IdParamPipe) intentId: string,
    @Body() body: CancelWaitingIntentDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new CancelWaitingIntentCommand(envelopeOf(agentId, context, body.expected_revision), intentId, body.note),
    );
  }

  @OperationRoles('TriggerWaitingIntent')
  @Post('waiting-intents/:intent_id/trigger')
  @HttpCode(200)
  @ApiOperation({
    summary: 'TriggerWaitingIntent: trigger_count + 1, never clears a blocker; 409 on a cancelled or resolved intent',
  })
  @ApiReply(200, 'TriggerReply')
  @ApiErrors({
    404: 'not_found: unknown agent or intent',
    409: 'conflict: the intent is no longer active (details.status: cancelled | resolved), or a stale expected_revision',
    422: 'wake_mismatch: the wait is not external (details: intent_id, wake); idempotency_key_reused',
  })
  trigger(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('intent_id', IdParamPipe) intentId: string,
    @Body() body: TriggerWaitingIntentDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(
      new TriggerWaitingIntentCommand(envelopeOf(agentId, context, expected_revision), intentId, input),
    );
  }
}
