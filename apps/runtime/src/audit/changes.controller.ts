import { Controller, Get, Headers, Inject, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  type Caller,
  CurrentCaller,
  CHANGES_FEED,
  type Change,
  type ChangesFeed,
  changeScopeOf,
  ReadRoles,
  StoreRead,
  toChangeItem,
} from '@app/application';
import { ApiTextReply, DECIMAL_PATTERN } from '@app/contracts';
import { ApiError } from '@app/core';
import { resumeAfter } from './audit-params';
import { EventStreams, type SseFrame } from './event-stream';

async function* changeFrames(changes: AsyncIterable<Change>): AsyncGenerator<SseFrame> {
  for await (const change of changes) {
    yield { id: change.position.toString(), event: 'change', data: toChangeItem(change) };
  }
}

/** What changed across the caller's agents, live: the console's agents list and attention view reload on it. */
@ApiTags('audit')
@ApiBearerAuth()
@Controller('v1/changes')
export class ChangesController {
  constructor(
    @Inject(CHANGES_FEED) private readonly feed: ChangesFeed,
    private readonly streams: EventStreams,
  ) {}

  @ReadRoles()
  @StoreRead()
  @Get()
  @ApiOperation({
    summary:
      "Server-sent events: one `change` (agent_id, revision, position, type) per event of the token's agents (admin: all), " +
      'sent once the read models include it; id = global position; from now on, or after `after` / Last-Event-ID',
  })
  @ApiQuery({
    name: 'after',
    required: false,
    description: 'a global position (exclusive); absent: from now on',
    schema: { type: 'string', pattern: DECIMAL_PATTERN },
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'the resume point of a reconnecting client; wins over `after`',
  })
  @ApiTextReply(
    'text/event-stream',
    "server-sent events across the token's agents (admin: all): one `change` frame per event once the read models include it; `id` = the global position, `data` = a Change (JSON)",
  )
  async changes(
    @CurrentCaller() caller: Caller | null,
    @Query('after') after: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!caller) throw new ApiError('unauthorized', 'a bearer token is required');
    const scope = changeScopeOf(caller);
    const from = resumeAfter(lastEventId, after, 'a global position') ?? (await this.feed.now());
    reply.hijack();
    await this.streams.serve(reply.raw, (signal) => changeFrames(this.feed.follow(scope, from, signal)));
  }
}
