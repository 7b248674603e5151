import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, REFUSAL_LOG, type RefusalLog, StoreRead } from '@app/application';
import { ApiReply, ListRefusalsQueryDto, parseLimit } from '@app/contracts';
import { clampListLimit } from '@app/domain';

/** The refusals audit (ADR 0032): commands that wrote nothing, kept with who and why. Admin tokens only. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('v1/admin/refusals')
export class RefusalsController {
  constructor(@Inject(REFUSAL_LOG) private readonly refusals: RefusalLog) {}

  @Get()
  // Not a projection: the audit table has every refusal once written (min_position is accepted and ignored).
  @StoreRead()
  @ApiOperation({
    summary:
      'Refused commands, triggers on resolved intents and no-op controls (they write nothing to the stream), newest first: actor, route, agent, code, reason, time; the newest REFUSALS_RETAIN_ROWS are kept',
  })
  @ApiReply(200, 'RefusalList')
  list(@Query() query: ListRefusalsQueryDto) {
    return this.refusals.list(query.agent_id, clampListLimit(parseLimit(query.limit)));
  }
}
