import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AGENT_EVENTS_READER, type AgentEventsReader, ReadRoles, StoreRead } from '@app/application';
import { ApiErrors, ApiReply, ApiTextReply, DECIMAL_PATTERN } from '@app/contracts';
import { IdParamPipe } from '../http-envelope';
import { parseAfter, parseLimit, resumeAfter } from './audit-params';
import { eventFrames, EventStreams, wireError } from './event-stream';

const REVISION = { type: 'string', pattern: DECIMAL_PATTERN } as const;

/** An agent's raw stream for audit: pages by revision, and the same as server-sent events. */
@ApiTags('audit')
@ApiBearerAuth()
@Controller('v1/agents/:agent_id/events')
export class AgentEventsController {
  constructor(
    @Inject(AGENT_EVENTS_READER) private readonly reader: AgentEventsReader,
    private readonly streams: EventStreams,
  ) {}

  @ReadRoles()
  @StoreRead()
  @Get()
  @ApiOperation({
    summary: 'The agent stream, ascending by revision; `after` is exclusive; limit 1..1000 (default 100)',
  })
  @ApiQuery({ name: 'after', required: false, description: 'a stream revision (exclusive)', schema: REVISION })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'clamped to 1..1000',
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  })
  @ApiReply(200, 'AuditEventPage')
  @ApiErrors({ 404: 'not_found: the agent has no stream' })
  async page(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Query('after') after?: string,
    @Query('limit') limit?: string,
  ) {
    try {
      return await this.reader.page(agentId, parseAfter(after), parseLimit(limit));
    } catch (error) {
      throw wireError(error);
    }
  }

  @ReadRoles()
  @StoreRead()
  @Get('stream')
  @ApiOperation({
    summary: 'Server-sent events: backlog after `after` (or Last-Event-ID), then live; id = revision, event = type',
  })
  @ApiQuery({ name: 'after', required: false, description: 'a stream revision (exclusive)', schema: REVISION })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'the resume point of a reconnecting client; wins over `after`',
  })
  @ApiTextReply(
    'text/event-stream',
    'server-sent events: the backlog after `after` (or Last-Event-ID, which wins), then live; each frame: `id` = the revision, `event` = the event type, `data` = an AuditEvent (JSON)',
  )
  @ApiErrors({ 404: 'not_found: the agent has no stream' })
  async stream(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Query('after') after: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const from = resumeAfter(lastEventId, after);
    await this.reader.assertExists(agentId);
    reply.hijack();
    await this.streams.serve(reply.raw, (signal) => eventFrames(this.reader.follow(agentId, from, signal)));
  }
}
