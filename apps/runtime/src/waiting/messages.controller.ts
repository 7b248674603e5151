import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ControlCommand,
  DropMessageCommand,
  EnqueueMessageCommand,
  ListMessagesQuery,
  ReadRoles,
  OperationRoles,
} from '@app/application';
import {
  ExpectedRevisionDto,
  ControlDto,
  EnqueueMessageDto,
  ListMessagesQueryDto,
  parseLimit,
  ApiErrors,
  ApiReply,
} from '@app/contracts';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

/** The operator's hold on an agent: its message queue and its posture. */
@ApiTags('messages')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id')
export class MessagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @OperationRoles('EnqueueMessage')
  @Post('messages')
  @ApiOperation({
    summary:
      "EnqueueMessage (201): the authority comes from the kind and the caller's role (docs/decisions/0022); a kind the role may not send is 403, control and runtime-owned kinds are 400, trust/authority fields are 400",
  })
  @ApiReply(201, 'MessageReply')
  @ApiErrors({
    400: 'validation_failed: a runtime-owned kind, `authority` or `trust` in the body, or another malformed field',
    404: 'not_found: unknown agent, work item or task',
    409: 'agent_stopped: an interject operator prompt while the agent is stopped; conflict: a stale expected_revision',
  })
  enqueue(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: EnqueueMessageDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, ...input } = body;
    return this.commands.execute(new EnqueueMessageCommand(envelopeOf(agentId, context, expected_revision), input));
  }

  @ReadRoles()
  @Get('messages')
  @ApiOperation({
    summary: 'ListMessages: status=queued (default) in priority band then FIFO order; other statuses newest first',
  })
  @ApiReply(200, 'MessageList')
  list(@Param('agent_id', IdParamPipe) agentId: string, @Query() query: ListMessagesQueryDto) {
    return this.queries.execute(
      new ListMessagesQuery(agentId, { status: query.status, limit: parseLimit(query.limit) }),
    );
  }

  @OperationRoles('DropMessage')
  @Delete('messages/:message_id')
  @ApiOperation({ summary: 'DropMessage: drops a queued message (operator action)' })
  @ApiReply(200, 'DropMessageReply')
  @ApiErrors({
    404: 'not_found: unknown agent or message',
    422: 'invariant_violated: the message is not queued; idempotency_key_reused',
  })
  drop(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Param('message_id', IdParamPipe) messageId: string,
    @Body() body: ExpectedRevisionDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(
      new DropMessageCommand(envelopeOf(agentId, context, body.expected_revision), messageId),
    );
  }

  @OperationRoles('Control')
  @Post('control')
  @HttpCode(200)
  @ApiOperation({ summary: 'Control: start | stop | pause | resume (`changed: false` when nothing changes)' })
  @ApiReply(200, 'ControlReply', '`changed: false` when nothing changes')
  control(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: ControlDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    return this.commands.execute(new ControlCommand(envelopeOf(agentId, context, body.expected_revision), body.action));
  }
}
