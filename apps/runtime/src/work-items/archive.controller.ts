import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ArchiveWorkItemsCommand } from '@app/application';
import { ApiErrors, ApiReply, ArchiveWorkItemsDto } from '@app/contracts';
import { CallerHeaders, envelopeOf, type HttpCommandContext, IdParamPipe } from '../http-envelope';

/** Archiving (docs/decisions/0034): admin tokens (`*`) only. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('v1/admin/agents/:agent_id/archive')
export class ArchiveController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'ArchiveWorkItems: completed items older than completed_before (and finished records) leave the live state; ' +
      'the read model keeps them (GET by id, filter=archived); archived: false when nothing was older',
  })
  @ApiReply(200, 'ArchiveWorkItemsReply')
  @ApiErrors({
    400: 'validation_failed: completed_before is not an RFC 3339 instant',
    404: 'not_found: unknown agent',
  })
  archive(
    @Param('agent_id', IdParamPipe) agentId: string,
    @Body() body: ArchiveWorkItemsDto,
    @CallerHeaders() context: HttpCommandContext,
  ) {
    const { expected_revision, completed_before } = body;
    return this.commands.execute(
      new ArchiveWorkItemsCommand(envelopeOf(agentId, context, expected_revision), completed_before),
    );
  }
}
