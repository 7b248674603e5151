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
  list(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListWaitingIntentsQueryDto) {
    const { status, work_item_id, limit } = query;
    return this.queries.execute(
      new ListWaitingIntentsQuery(agentId, { status, work_item_id, limit: parseLimit(limit) }),
    );
  }

  @OperationRoles('CancelWaitingIntent')
  @Delete('waiting-intents/:intent_id')
  @ApiOperation({ summary: 'CancelWaitingIntent (idempotent; the blocker stays)' })
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
