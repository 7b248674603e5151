import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PROJECTIONS_ADMIN, type ProjectionsAdmin, AdminOnly } from '@app/application';

/** Read-model administration: admin tokens (`*`) only. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('v1/admin/projections')
export class ProjectionsController {
  constructor(@Inject(PROJECTIONS_ADMIN) private readonly admin: ProjectionsAdmin) {}

  @Get()
  @ApiOperation({
    summary: 'Checkpoint, store head, lag and status of every projection (stalled: the poison event it stopped at)',
  })
  async status() {
    const items = await this.admin.status();
    return { items, total: items.length };
  }

  @Post('rebuild')
  @HttpCode(200)
  @ApiOperation({ summary: 'Drop the read models and replay them from position 0 (409 while one runs)' })
  rebuild() {
    return this.admin.rebuild();
  }
}
