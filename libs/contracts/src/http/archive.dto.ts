import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { ExpectedRevisionDto } from './common.dto';

/** The body of POST /v1/admin/agents/{agent_id}/archive. */
export class ArchiveWorkItemsDto extends ExpectedRevisionDto {
  @ApiProperty({
    format: 'date-time',
    description:
      'the cut-off: completed items (and finished records) older than it leave the live state; an RFC 3339 instant',
  })
  @IsString()
  completed_before!: string;
}
