import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminOnly,
  type Caller,
  CurrentCaller,
  DEAD_LETTERS_ADMIN,
  type DeadLettersAdmin,
  PROJECTIONS_ADMIN,
  type ProjectionsAdmin,
} from '@app/application';
import { DeadLetterActionDto, ApiErrors, ApiReply } from '@app/contracts';
import { ApiError } from '@app/core';

/** Read-model administration: admin tokens (`*`) only. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('v1/admin/projections')
export class ProjectionsController {
  constructor(
    @Inject(PROJECTIONS_ADMIN) private readonly admin: ProjectionsAdmin,
    @Inject(DEAD_LETTERS_ADMIN) private readonly letters: DeadLettersAdmin,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Checkpoint, store head, lag and status of every projection (stalled: a poison event parked an agent; stalled_at: the first open dead letter)',
  })
  @ApiReply(200, 'ProjectionStatusList')
  async status() {
    const items = await this.admin.status();
    return { items, total: items.length };
  }

  @Post('rebuild')
  @HttpCode(200)
  @ApiOperation({ summary: 'Drop the read models and replay them from position 0 (409 while one runs)' })
  @ApiReply(200, 'RebuildResult')
  @ApiErrors({ 409: 'conflict: a rebuild is running, or this process runs no projector' })
  rebuild() {
    return this.admin.rebuild();
  }

  @Get(':name/dead-letters')
  @ApiOperation({
    summary:
      "A projection's dead letters (open: its agent is parked; applied; skipped) with the audit of every skip and retry, and the parked agents",
  })
  @ApiReply(200, 'DeadLetterReport')
  @ApiErrors({ 404: 'not_found: no projection of that name' })
  deadLetters(@Param('name') name: string) {
    return this.letters.list(name);
  }

  @Post(':name/dead-letters/:position/skip')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Skip an open dead letter (its rows are never written; needs a reason) and apply its agent's held events in order; audited with the token name",
  })
  @ApiReply(200, 'DeadLetterResolution')
  @ApiErrors({
    400: 'validation_failed: no reason, or a position that is not digits',
    404: 'not_found: no such projection or letter',
    409: 'conflict: the letter is not open (already applied or skipped) or not reached yet',
  })
  skip(
    @Param('name') name: string,
    @Param('position') position: string,
    @Body() body: DeadLetterActionDto,
    @CurrentCaller() caller: Caller | null,
  ) {
    return this.letters.skip(name, position, actorOf(caller), body?.reason);
  }

  @Post(':name/dead-letters/:position/retry')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Apply an open dead letter again, then its agent's held events in order (outcome failed: the agent stays parked, attempts counted); audited",
  })
  @ApiReply(200, 'DeadLetterResolution', 'outcome failed: the agent stays parked, attempts counted')
  @ApiErrors({
    400: 'validation_failed: a position that is not digits, or a reason too long',
    404: 'not_found: no such projection or letter',
    409: 'conflict: the letter is not open (already applied or skipped) or not reached yet',
  })
  retry(
    @Param('name') name: string,
    @Param('position') position: string,
    @Body() body: DeadLetterActionDto,
    @CurrentCaller() caller: Caller | null,
  ) {
    return this.letters.retry(name, position, actorOf(caller), body?.reason);
  }
}

function actorOf(caller: Caller | null): string {
  if (!caller) throw new ApiError('unauthorized', 'a bearer token is required');
  return caller.tokenName;
}
