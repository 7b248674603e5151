import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AGENT_EVENTS_READER, type AgentEventsReader, ReadRoles, StoreRead } from '@app/application';
import { IdParamPipe } from '../http-envelope';
import { parseAfter, parseLimit, resumeAfter } from './audit-params';
import { eventFrames, EventStreams, wireError } from './event-stream';

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
  @ApiQuery({ name: 'after', required: false, type: String })
  @ApiQuery({ name: 'limit', required: false, type: Number })
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
  @ApiProduces('text/event-stream')
  @ApiOperation({
    summary: 'Server-sent events: backlog after `after` (or Last-Event-ID), then live; id = revision, event = type',
  })
  @ApiQuery({ name: 'after', required: false, type: String })
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
